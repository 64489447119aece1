// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat validate's results file: JSON, every sample kept (in run
 * order) so that gupstat compare, jq or a notebook can redo any
 * statistic; the summaries beside them are for people reading the file.
 * The reader checks every field it uses and names the first bad one.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>
#include "validate/validate.h"

#define FORMAT_NAME	"gupstat-validate-unpin"

static const char *const series_names[] = { "pin_ns", "unpin_ns", "pin_counter", "unpin_counter" };

static struct v_series *series_of(struct v_cond_result *c, int i)
{
	struct v_series *s[] = { &c->pin_ns, &c->unpin_ns, &c->pin_ctr, &c->unpin_ctr };

	return s[i];
}

static void add_int(json_object *o, const char *k, long long v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static void add_str(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

static json_object *summary_json(const struct v_series *s)
{
	json_object *o = json_object_new_object();
	struct v_summary m;

	v_summarise(s, &m);
	add_int(o, "n", m.n);
	json_object_object_add(o, "median", json_object_new_double(m.median));
	json_object_object_add(o, "p25", json_object_new_double(m.p25));
	json_object_object_add(o, "p75", json_object_new_double(m.p75));
	json_object_object_add(o, "min", json_object_new_double(m.min));
	json_object_object_add(o, "max", json_object_new_double(m.max));
	return o;
}

static json_object *cond_json(const struct v_cond_result *c)
{
	json_object *o = json_object_new_object(), *sum = json_object_new_object(), *a;
	const struct v_series *s;
	int i, j;

	for (i = 0; i < 4; i++) {
		s = series_of((struct v_cond_result *)c, i);
		a = json_object_new_array();
		for (j = 0; j < s->n; j++)
			json_object_array_add(a, json_object_new_int64((long long)s->v[j]));
		json_object_object_add(o, series_names[i], a);
		json_object_object_add(sum, series_names[i], summary_json(s));
	}
	json_object_object_add(o, "summary", sum);
	return o;
}

static json_object *census_json(const struct v_census *c)
{
	json_object *o = json_object_new_object();

	add_int(o, "pin_calls", c->pin_calls);
	add_int(o, "pin_pages", c->pin_pages);
	add_int(o, "grabs", c->grabs);
	add_int(o, "grab_refs", c->grab_refs);
	add_int(o, "unpin_calls", c->unpin_calls);
	add_int(o, "unpin_pages", c->unpin_pages);
	add_int(o, "puts", c->puts);
	add_int(o, "put_refs", c->put_refs);
	return o;
}

static json_object *run_json(const struct v_run *r)
{
	json_object *o = json_object_new_object();
	int c;

	add_str(o, "folio", v_folio_names[r->folio]);
	add_int(o, "size_mb", r->size_mb);
	add_int(o, "pages", r->pages);
	add_int(o, "folios", r->folios);
	json_object_object_add(o, "census", census_json(&r->census));
	for (c = 0; c < VC_NR; c++)
		json_object_object_add(o, v_cond_names[c], cond_json(&r->cond[c]));
	return o;
}

int v_results_write(FILE *f, const struct v_results *r)
{
	json_object *o = json_object_new_object(), *k = json_object_new_object();
	json_object *ctr = json_object_new_object(), *runs = json_object_new_array();
	int i, err = 0;

	add_str(o, "format", FORMAT_NAME);
	add_int(o, "version", V_FORMAT);
	add_str(k, "release", r->kernel);
	add_str(k, "version", r->kernel_version);
	add_str(k, "walk", r->walk);
	json_object_object_add(o, "kernel", k);
	add_str(o, "attach", r->attach);
	add_str(ctr, "event", r->event[0] ? r->event : NULL);
	add_str(ctr, "reason", r->event[0] ? NULL : r->no_event_reason);
	json_object_object_add(o, "counter", ctr);
	add_int(o, "cpu", r->cpu);
	add_int(o, "repeats", r->repeats);
	add_int(o, "evict_bytes", r->evict_bytes);
	add_str(o, "method", "per repeat: one pin_user_pages(FOLL_LONGTERM) call and one unpin_user_pages() call over the whole range (GUP_TEST PIN_LONGTERM_TEST_START/STOP), each timed from its entry to its return in the kernel; cold: evict_bytes read between pin and unpin; census: grabs and puts counted in one extra, untimed repeat");
	for (i = 0; i < r->nr_runs; i++)
		json_object_array_add(runs, run_json(&r->runs[i]));
	json_object_object_add(o, "runs", runs);
	if (fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						 JSON_C_TO_STRING_NOSLASHESCAPE), f) < 0 ||
	    fputc('\n', f) == EOF)
		err = -EIO;
	json_object_put(o);
	return err;
}

/* The reader: each getter names what is missing or of the wrong type. */
struct reader {
	const char *bad;	/* the first bad field */
};

static json_object *get(struct reader *rd, json_object *o, const char *k, json_type t)
{
	json_object *v;

	if (rd->bad)
		return NULL;
	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, t)) {
		rd->bad = k;
		return NULL;
	}
	return v;
}

static long long get_int(struct reader *rd, json_object *o, const char *k, long long min)
{
	json_object *v = get(rd, o, k, json_type_int);
	long long n = v ? json_object_get_int64(v) : 0;

	if (v && n < min)
		rd->bad = k;
	return n;
}

static void get_str(struct reader *rd, json_object *o, const char *k, char *buf, size_t len,
		    bool nullable)
{
	json_object *v;

	buf[0] = 0;
	if (nullable && json_object_object_get_ex(o, k, &v) && !v)
		return;
	v = get(rd, o, k, json_type_string);
	if (v && snprintf(buf, len, "%s", json_object_get_string(v)) >= (int)len)
		rd->bad = k;
}

static void read_series(struct reader *rd, json_object *o, const char *k, struct v_series *s)
{
	json_object *a = get(rd, o, k, json_type_array), *e;
	size_t i, n = a ? json_object_array_length(a) : 0;

	if (n > V_MAX_REPEATS)
		rd->bad = k;
	for (i = 0; !rd->bad && i < n; i++) {
		e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_int) || json_object_get_int64(e) < 0)
			rd->bad = k;
		else
			v_series_add(s, json_object_get_int64(e));
	}
}

static void read_census(struct reader *rd, json_object *o, struct v_census *c)
{
	json_object *e = get(rd, o, "census", json_type_object);

	if (!e)
		return;
	c->pin_calls = get_int(rd, e, "pin_calls", 0);
	c->pin_pages = get_int(rd, e, "pin_pages", 0);
	c->grabs = get_int(rd, e, "grabs", 0);
	c->grab_refs = get_int(rd, e, "grab_refs", 0);
	c->unpin_calls = get_int(rd, e, "unpin_calls", 0);
	c->unpin_pages = get_int(rd, e, "unpin_pages", 0);
	c->puts = get_int(rd, e, "puts", 0);
	c->put_refs = get_int(rd, e, "put_refs", 0);
}

static void read_run(struct reader *rd, json_object *o, struct v_run *r)
{
	char folio[8];
	json_object *c;
	int i, k;

	get_str(rd, o, "folio", folio, sizeof(folio), false);
	if (!rd->bad && v_folio_parse(folio, &r->folio))
		rd->bad = "folio";
	r->size_mb = get_int(rd, o, "size_mb", 1);
	r->pages = get_int(rd, o, "pages", 1);
	r->folios = get_int(rd, o, "folios", 1);
	read_census(rd, o, &r->census);
	for (k = 0; k < VC_NR; k++) {
		c = get(rd, o, v_cond_names[k], json_type_object);
		for (i = 0; c && i < 4; i++)
			read_series(rd, c, series_names[i], series_of(&r->cond[k], i));
		if (!rd->bad && !r->cond[k].unpin_ns.n)
			rd->bad = "unpin_ns";
	}
}

static void read_top(struct reader *rd, json_object *o, struct v_results *r)
{
	char fmt[64];
	json_object *k, *ctr, *runs;
	size_t i, n;

	get_str(rd, o, "format", fmt, sizeof(fmt), false);
	if (!rd->bad && strcmp(fmt, FORMAT_NAME))
		rd->bad = "format";
	if (!rd->bad && get_int(rd, o, "version", 0) != V_FORMAT)
		rd->bad = "version";
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
	r->cpu = get_int(rd, o, "cpu", 0);
	r->repeats = get_int(rd, o, "repeats", 1);
	r->evict_bytes = get_int(rd, o, "evict_bytes", 0);
	runs = get(rd, o, "runs", json_type_array);
	n = runs ? json_object_array_length(runs) : 0;
	if (runs && (n == 0 || n > V_MAX_RUNS))
		rd->bad = "runs";
	for (i = 0; !rd->bad && i < n; i++) {
		json_object *e = json_object_array_get_idx(runs, i);

		if (!json_object_is_type(e, json_type_object))
			rd->bad = "runs";
		else
			read_run(rd, e, &r->runs[r->nr_runs++]);
	}
}

int v_results_read(const char *path, struct v_results *r)
{
	struct reader rd = {};
	json_object *o;

	memset(r, 0, sizeof(*r));
	o = json_object_from_file(path);
	if (!o) {
		char why[200];

		/* json-c's message ends in a newline; the error is one line. */
		snprintf(why, sizeof(why), "%s", json_util_get_last_err() ?: "unknown error");
		why[strcspn(why, "\n")] = 0;
		fprintf(stderr, "gupstat: %s: not a readable JSON file (%s)\n", path, why);
		return -EINVAL;
	}
	if (!json_object_is_type(o, json_type_object))
		rd.bad = "top level";
	else
		read_top(&rd, o, r);
	json_object_put(o);
	if (rd.bad) {
		fprintf(stderr, "gupstat: %s: not a gupstat validate results file: bad or missing '%s'\n",
			path, rd.bad);
		return -EINVAL;
	}
	return 0;
}
