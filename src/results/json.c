// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat validate's results file: JSON, every sample kept (in run
 * order) so that gupstat compare, jq or a notebook can redo any
 * statistic; the summaries beside them are for people reading the file.
 * Written with util/json, read with json-c: the reader checks every
 * field it uses and names the first bad one.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>
#include "util/input.h"
#include "util/jscan.h"
#include "util/json.h"
#include "results/results.h"
#include "util/msg.h"

#define FORMAT_NAME	"gupstat-validate-unpin"

static const char *const series_names[] = { "pin_ns", "unpin_ns", "pin_counter", "unpin_counter" };

static struct v_series *series_of(struct v_cond_result *c, int i)
{
	struct v_series *s[] = { &c->pin_ns, &c->unpin_ns, &c->pin_ctr, &c->unpin_ctr };

	return s[i];
}

static void summary_json(struct jw *w, const char *key, const struct v_series *s)
{
	struct v_summary m;

	v_summarise(s, &m);
	jw_object(w, key);
	jw_i64(w, "n", m.n);
	jw_double(w, "median", m.median);
	jw_double(w, "p25", m.p25);
	jw_double(w, "p75", m.p75);
	jw_double(w, "min", m.min);
	jw_double(w, "max", m.max);
	jw_end_object(w);
}

static void samples_json(struct jw *w, const char *key, const struct v_series *s)
{
	int j;

	jw_array(w, key);
	for (j = 0; j < s->n; j++)
		jw_i64(w, NULL, (long long)s->v[j]);
	jw_end_array(w);
}

/* Per simulated counter: the pin's and the unpin's samples. */
static void sim_json(struct jw *w, const struct v_cond_result *c)
{
	int i;

	jw_object(w, "sim");
	for (i = 0; i < GS_NR; i++) {
		jw_object(w, v_sim_names[i]);
		samples_json(w, "pin", &c->pin_sim[i]);
		samples_json(w, "unpin", &c->unpin_sim[i]);
		jw_object(w, "summary");
		summary_json(w, "pin", &c->pin_sim[i]);
		summary_json(w, "unpin", &c->unpin_sim[i]);
		jw_end_object(w);
		jw_end_object(w);
	}
	jw_end_object(w);
}

static void cond_json(struct jw *w, const char *key, const struct v_cond_result *c, bool sim)
{
	int i;

	jw_object(w, key);
	for (i = 0; i < 4; i++)
		samples_json(w, series_names[i], series_of((struct v_cond_result *)c, i));
	if (sim)
		sim_json(w, c);
	jw_object(w, "summary");
	for (i = 0; i < 4; i++)
		summary_json(w, series_names[i], series_of((struct v_cond_result *)c, i));
	jw_end_object(w);
	jw_end_object(w);
}

static void census_json(struct jw *w, const struct v_census *c)
{
	jw_object(w, "census");
	jw_i64(w, "pin_calls", c->pin_calls);
	jw_i64(w, "pin_pages", c->pin_pages);
	jw_i64(w, "grabs", c->grabs);
	jw_i64(w, "grab_refs", c->grab_refs);
	jw_i64(w, "unpin_calls", c->unpin_calls);
	jw_i64(w, "unpin_pages", c->unpin_pages);
	jw_i64(w, "puts", c->puts);
	jw_i64(w, "put_refs", c->put_refs);
	jw_end_object(w);
}

static void run_json(struct jw *w, const struct v_run *r, bool sim)
{
	int c;

	jw_object(w, NULL);
	jw_string(w, "folio", v_folio_names[r->folio]);
	jw_u64(w, "size_mb", r->size_mb);
	jw_u64(w, "pages", r->pages);
	jw_u64(w, "folios", r->folios);
	census_json(w, &r->census);
	for (c = 0; c < VC_NR; c++)
		cond_json(w, v_cond_names[c], &r->cond[c], sim);
	jw_end_object(w);
}

/* The model and the struct page range it was told; null without --sim. */
static void sim_model_json(struct jw *w, const struct v_results *r)
{
	char range[64];

	if (!r->sim_model[0]) {
		jw_string(w, "sim", NULL);
		return;
	}
	snprintf(range, sizeof(range), "0x%llx-0x%llx", r->vmemmap_start, r->vmemmap_end);
	jw_object(w, "sim");
	jw_string(w, "model", r->sim_model);
	jw_string(w, "struct_pages", range);
	jw_u64(w, "repeats_retried", r->sim_retried);
	jw_string(w, "method", "QEMU TCG plugin (build/gupsim.so): every guest data access through the model, counted per call from the function's entry to its return, struct page lines being those in struct_pages");
	jw_end_object(w);
}

/* Errors are the stream's: the caller's output_commit() reports them. */
void v_results_write(FILE *f, const struct v_results *r)
{
	struct jw w;
	int i;

	jw_document(&w, f, FORMAT_NAME, V_FORMAT);
	jw_object(&w, "kernel");
	jw_string(&w, "release", r->kernel);
	jw_string(&w, "version", r->kernel_version);
	jw_string(&w, "walk", r->walk);
	jw_end_object(&w);
	jw_string(&w, "attach", r->attach);
	jw_object(&w, "counter");
	jw_string(&w, "event", r->event[0] ? r->event : NULL);
	jw_string(&w, "reason", r->event[0] ? NULL : r->no_event_reason);
	jw_end_object(&w);
	sim_model_json(&w, r);
	jw_i64(&w, "cpu", r->cpu);
	jw_u64(&w, "repeats", r->repeats);
	jw_u64(&w, "evict_bytes", r->evict_bytes);
	jw_string(&w, "method", "per repeat: one pin_user_pages(FOLL_LONGTERM) call and one unpin_user_pages() call over the whole range (GUP_TEST PIN_LONGTERM_TEST_START/STOP), each timed from its entry to its return in the kernel; cold: evict_bytes read between pin and unpin; cold_pin: evict_bytes read before the pin; census: grabs and puts counted in one extra, untimed repeat");
	jw_array(&w, "runs");
	for (i = 0; i < r->nr_runs; i++)
		run_json(&w, &r->runs[i], r->sim_model[0]);
	jw_end_array(&w);
	jw_end_object(&w);
}

/*
 * The reader: each getter checks the field against the range of the
 * type it is stored in, and keeps the first bad field and why.
 */
struct reader {
	const char *bad;	/* the first bad field */
	char why[96];
};

/* Samples are kept as doubles: integers above 2^53 would not survive. */
#define EXACT_MAX	(1LL << 53)

static void bad(struct reader *rd, const char *k, const char *why)
{
	if (rd->bad)
		return;
	rd->bad = k;
	snprintf(rd->why, sizeof(rd->why), "%s", why);
}

static json_object *get(struct reader *rd, json_object *o, const char *k, json_type t)
{
	json_object *v;

	if (rd->bad)
		return NULL;
	if (!json_object_object_get_ex(o, k, &v)) {
		bad(rd, k, "missing");
		return NULL;
	}
	if (!json_object_is_type(v, t)) {
		bad(rd, k, t == json_type_int ? "not a whole number" : "of the wrong type");
		return NULL;
	}
	return v;
}

/* @v as an integer in [@min, @max]: no field is narrowed by its store. */
static long long int_in(struct reader *rd, const char *k, json_object *v, long long min,
			long long max)
{
	long long n = json_object_get_int64(v);
	/* json-c keeps integers above INT64_MAX apart, as unsigned. */
	bool huge = n == INT64_MAX && json_object_get_uint64(v) > INT64_MAX;
	char why[96];

	if (huge || n < min || n > max) {
		/* json-c clamps what 64 bits cannot hold: do not quote that. */
		snprintf(why, sizeof(why), "%s is out of range (%lld to %lld)",
			 json_object_get_uint64(v) == UINT64_MAX ? "a number too large for 64 bits" :
			 json_object_get_string(v), min, max);
		bad(rd, k, why);
		return min;
	}
	return n;
}

static long long get_int(struct reader *rd, json_object *o, const char *k, long long min,
			 long long max)
{
	json_object *v = get(rd, o, k, json_type_int);

	return v ? int_in(rd, k, v, min, max) : min;
}

/* A string, cut to nothing unsafe to print (compare prints them). */
static void get_str(struct reader *rd, json_object *o, const char *k, char *buf, size_t len,
		    bool nullable)
{
	json_object *v;

	buf[0] = 0;
	if (nullable && json_object_object_get_ex(o, k, &v) && !v)
		return;
	v = get(rd, o, k, json_type_string);
	if (v && snprintf(buf, len, "%s", json_object_get_string(v)) >= (int)len) {
		bad(rd, k, "too long");
		buf[0] = 0;
	}
	input_sanitise(buf);
}

static void read_series(struct reader *rd, json_object *o, const char *k, struct v_series *s)
{
	json_object *a = get(rd, o, k, json_type_array), *e;
	size_t i, n = a ? json_object_array_length(a) : 0;

	if (n > V_MAX_REPEATS)
		bad(rd, k, "more samples than repeats can be (1000)");
	for (i = 0; !rd->bad && i < n; i++) {
		e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_int))
			bad(rd, k, "a sample is not a whole number");
		else
			v_series_add(s, int_in(rd, k, e, 0, EXACT_MAX));
	}
}

static void read_census(struct reader *rd, json_object *o, struct v_census *c)
{
	json_object *e = get(rd, o, "census", json_type_object);

	if (!e)
		return;
	c->pin_calls = get_int(rd, e, "pin_calls", 0, EXACT_MAX);
	c->pin_pages = get_int(rd, e, "pin_pages", 0, EXACT_MAX);
	c->grabs = get_int(rd, e, "grabs", 0, EXACT_MAX);
	c->grab_refs = get_int(rd, e, "grab_refs", 0, EXACT_MAX);
	c->unpin_calls = get_int(rd, e, "unpin_calls", 0, EXACT_MAX);
	c->unpin_pages = get_int(rd, e, "unpin_pages", 0, EXACT_MAX);
	c->puts = get_int(rd, e, "puts", 0, EXACT_MAX);
	c->put_refs = get_int(rd, e, "put_refs", 0, EXACT_MAX);
}

static void read_sim(struct reader *rd, json_object *o, struct v_cond_result *c)
{
	json_object *sim = get(rd, o, "sim", json_type_object), *e;
	int i;

	for (i = 0; sim && i < GS_NR; i++) {
		/* Files from before instructions were counted have none. */
		if (i >= GS_INSNS && !json_object_object_get_ex(sim, v_sim_names[i], NULL))
			continue;
		e = get(rd, sim, v_sim_names[i], json_type_object);
		if (!e)
			return;
		read_series(rd, e, "pin", &c->pin_sim[i]);
		read_series(rd, e, "unpin", &c->unpin_sim[i]);
	}
}

static void read_run(struct reader *rd, json_object *o, struct v_run *r, bool sim)
{
	char folio[8];
	json_object *c;
	int i, k;

	get_str(rd, o, "folio", folio, sizeof(folio), false);
	if (!rd->bad && v_folio_parse(folio, &r->folio))
		bad(rd, "folio", "not 4k, 64k or 2m");
	r->size_mb = get_int(rd, o, "size_mb", 1, UINT_MAX);
	r->pages = get_int(rd, o, "pages", 1, LONG_MAX);
	r->folios = get_int(rd, o, "folios", 1, LONG_MAX);
	read_census(rd, o, &r->census);
	for (k = 0; k < VC_NR; k++) {
		/* Files from before cold_pin was measured have none. */
		if (k == VC_COLD_PIN && !json_object_object_get_ex(o, v_cond_names[k], NULL))
			continue;
		c = get(rd, o, v_cond_names[k], json_type_object);
		for (i = 0; c && i < 4; i++)
			read_series(rd, c, series_names[i], series_of(&r->cond[k], i));
		if (c && sim)
			read_sim(rd, c, &r->cond[k]);
		if (!r->cond[k].unpin_ns.n)
			bad(rd, "unpin_ns", "no samples");
	}
}

static void read_top(struct reader *rd, json_object *o, struct v_results *r)
{
	char fmt[64];
	json_object *k, *ctr, *runs, *sim;
	size_t i, n;

	get_str(rd, o, "format", fmt, sizeof(fmt), false);
	if (!rd->bad && strcmp(fmt, FORMAT_NAME))
		bad(rd, "format", "not " FORMAT_NAME);
	if (get_int(rd, o, "version", 0, INT_MAX) != V_FORMAT)
		bad(rd, "version", "a version this gupstat does not read");
	k = get(rd, o, "kernel", json_type_object);
	if (k) {
		get_str(rd, k, "release", r->kernel, sizeof(r->kernel), false);
		get_str(rd, k, "version", r->kernel_version, sizeof(r->kernel_version), false);
		get_str(rd, k, "walk", r->walk, sizeof(r->walk), false);
	}
	get_str(rd, o, "attach", r->attach, sizeof(r->attach), false);
	ctr = get(rd, o, "counter", json_type_object);
	if (ctr) {
		get_str(rd, ctr, "event", r->event, sizeof(r->event), true);
		get_str(rd, ctr, "reason", r->no_event_reason, sizeof(r->no_event_reason), true);
	}
	if (json_object_object_get_ex(o, "sim", &sim) && sim) {
		sim = get(rd, o, "sim", json_type_object);
		if (sim)
			get_str(rd, sim, "model", r->sim_model, sizeof(r->sim_model), false);
		/* Absent from files written before it was counted. */
		if (sim && json_object_object_get_ex(sim, "repeats_retried", NULL))
			r->sim_retried = get_int(rd, sim, "repeats_retried", 0, UINT_MAX);
		if (!rd->bad && !r->sim_model[0])
			bad(rd, "model", "empty");
	}
	r->cpu = get_int(rd, o, "cpu", 0, INT_MAX);
	r->repeats = get_int(rd, o, "repeats", 1, V_MAX_REPEATS);
	r->evict_bytes = get_int(rd, o, "evict_bytes", 0, LONG_MAX);
	runs = get(rd, o, "runs", json_type_array);
	n = runs ? json_object_array_length(runs) : 0;
	if (runs && (n == 0 || n > V_MAX_RUNS))
		bad(rd, "runs", "not 1 to 32 runs");
	for (i = 0; !rd->bad && i < n; i++) {
		json_object *e = json_object_array_get_idx(runs, i);

		if (!json_object_is_type(e, json_type_object))
			bad(rd, "runs", "a run is not an object");
		else
			read_run(rd, e, &r->runs[r->nr_runs++], r->sim_model[0]);
	}
}

/*
 * What a results file can hold, with room: 32 runs of 3 conditions, each
 * with 4 series and, with --sim, 11 counters of 2 series, of at most
 * 1000 samples: 2.5 million numbers in 3800 objects and arrays, nested 6
 * deep. Past these the file is refused before it is parsed (json-c takes
 * hundreds of bytes per object, about 50 per number).
 */
static const struct jscan_limits results_limits = {
	.containers = 8192,
	.elements = 3U << 20,
	.depth = 16,
};

/* One JSON document and nothing after it but white space. */
static json_object *parse(const char *path, const struct input *in)
{
	struct json_tokener *tok;
	enum json_tokener_error e;
	json_object *o = NULL;
	char why[128];
	size_t end;

	if (jscan_check(in->data, in->len, &results_limits, why, sizeof(why))) {
		p_err("%s: too large or deep for a results file: %s\n", path, why);
		return NULL;
	}
	tok = json_tokener_new_ex(results_limits.depth);
	if (!tok) {
		p_err("out of memory\n");
		return NULL;
	}
	/* Strict JSON; what follows the document is judged below. */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS);
	o = json_tokener_parse_ex(tok, in->data, in->len);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (e == json_tokener_continue) {
		p_err("%s: not a readable JSON file (it ends inside the document)\n",
		      path);
	} else if (e != json_tokener_success) {
		p_err("%s: not a readable JSON file (%s, at byte %zu)\n",
		      path, json_tokener_error_desc(e), end);
	} else if (end + strspn(in->data + end, " \t\r\n") < in->len) {
		/* Judged by length: a NUL byte after the document is data too. */
		p_err("%s: not a readable JSON file (more data after the document, at byte %zu)\n",
		      path, end + strspn(in->data + end, " \t\r\n"));
	} else if (!o) {
		/* json-c's value for the document "null" is NULL. */
		p_err("%s: not a gupstat validate results file: bad or missing 'top level': not an object\n",
		      path);
	} else {
		return o;
	}
	json_object_put(o);
	return NULL;
}

/*
 * A results file is a few hundred kB; at its largest (above) 2.5 million
 * numbers of up to 16 digits, indented, about 50 MB.
 */
#define RESULTS_MAX	(64UL << 20)

int v_results_read(const char *path, struct v_results *r)
{
	struct reader rd = {};
	struct input in;
	json_object *o;
	char why[160];

	memset(r, 0, sizeof(*r));
	if (input_read(path, RESULTS_MAX, "a results file", &in, why, sizeof(why))) {
		p_err("%s: %s\n", path, why);
		return -EINVAL;
	}
	o = parse(path, &in);
	input_free(&in);
	if (!o)
		return -EINVAL;
	if (!json_object_is_type(o, json_type_object))
		bad(&rd, "top level", "not an object");
	else
		read_top(&rd, o, r);
	json_object_put(o);
	if (rd.bad) {
		p_err("%s: not a gupstat validate results file: bad or missing '%s': %s\n",
		      path, rd.bad, rd.why);
		return -EINVAL;
	}
	return 0;
}
