// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat compare -j: every figure the text prints (compare.c), as one
 * JSON document validated against docs/schemas/compare.schema.json. The
 * text prints times in microseconds to one decimal; here each quantity
 * keeps its file's unit (nanoseconds, or counts per call), unrounded.
 */
#include <math.h>
#include "compare/compare.h"
#include "util/json.h"

#define FORMAT_NAME	"gupstat-compare"
#define FORMAT_VERSION	1

static void file_json(struct jw *w, const char *key, const char *path,
		      const struct v_results *r)
{
	jw_object(w, key);
	jw_string(w, "file", path);
	jw_string(w, "kernel", r->kernel);
	jw_string(w, "walk", r->walk);
	jw_u64(w, "repeats", r->repeats);
	jw_string(w, "counter", r->event[0] ? r->event : NULL);
	jw_string(w, "counter_reason", r->event[0] ? NULL : r->no_event_reason);
	jw_string(w, "sim_model", r->sim_model[0] ? r->sim_model : NULL);
	jw_end_object(w);
}

/* median [p25-p75] of the repeats; null where the file has none. */
static void cell_json(struct jw *w, const char *key, const struct v_series *s)
{
	struct v_summary m;

	v_summarise(s, &m);
	if (!m.n) {
		jw_string(w, key, NULL);
		return;
	}
	jw_object(w, key);
	jw_u64(w, "n", m.n);
	jw_double(w, "median", m.median);
	jw_double(w, "p25", m.p25);
	jw_double(w, "p75", m.p75);
	jw_end_object(w);
}

static void row_json(struct jw *w, const struct v_run *ra, const struct v_run *rb,
		     const struct v_column *c)
{
	const struct v_series *x = v_column_series(ra, c), *y = v_column_series(rb, c);
	struct v_summary ma, mb;

	v_summarise(x, &ma);
	v_summarise(y, &mb);
	jw_object(w, NULL);
	jw_string(w, "folio", v_folio_names[ra->folio]);
	jw_u64(w, "size_mb", ra->size_mb);
	cell_json(w, "base", x);
	cell_json(w, "other", y);
	/* base/other, as the text's ratio: above 1, other is lower. */
	jw_double(w, "ratio", ma.n && mb.n && mb.median > 0 ? ma.median / mb.median : NAN);
	jw_string(w, "change", v_change_name(v_change_of(x, y)));
	jw_end_object(w);
}

/* One table of the text: the runs both files have, in base's order. */
static void quantity_json(struct jw *w, const struct v_results *a, const struct v_results *b,
			  const struct v_column *c)
{
	const struct v_run *rb;
	int i;

	jw_object(w, NULL);
	jw_string(w, "title", c->title);
	jw_string(w, "phase", c->unpin ? "unpin" : "pin");
	jw_string(w, "condition", v_cond_names[c->cond]);
	jw_string(w, "measure", c->sim >= 0 ? v_sim_names[c->sim] : c->counter ? "counter" : "ns");
	jw_array(w, "runs");
	for (i = 0; i < a->nr_runs; i++) {
		rb = v_find_run(b, a->runs[i].folio, a->runs[i].size_mb);
		if (rb)
			row_json(w, &a->runs[i], rb, c);
	}
	jw_end_array(w);
	jw_end_object(w);
}

static void census_side(struct jw *w, const char *key, const struct v_run *r)
{
	jw_object(w, key);
	jw_u64(w, "pages", r->pages);
	jw_u64(w, "folios", r->folios);
	jw_i64(w, "grabs", r->census.grabs);
	jw_i64(w, "puts", r->census.puts);
	jw_end_object(w);
}

static void census_json(struct jw *w, const struct v_results *a, const struct v_results *b)
{
	const struct v_run *rb;
	int i;

	jw_array(w, "census");
	for (i = 0; i < a->nr_runs; i++) {
		rb = v_find_run(b, a->runs[i].folio, a->runs[i].size_mb);
		if (!rb)
			continue;
		jw_object(w, NULL);
		jw_string(w, "folio", v_folio_names[a->runs[i].folio]);
		jw_u64(w, "size_mb", a->runs[i].size_mb);
		census_side(w, "base", &a->runs[i]);
		census_side(w, "other", rb);
		jw_end_object(w);
	}
	jw_end_array(w);
}

static void verdicts_json(struct jw *w, const struct v_results *a, const struct v_results *b)
{
	struct v_claim c[V_NR_CLAIMS];
	int f, i;

	jw_array(w, "verdicts");
	for (f = 0; f < VF_NR; f++) {
		if (v_claims(a, b, f, c))
			continue;
		jw_object(w, NULL);
		jw_string(w, "folio", v_folio_names[f]);
		jw_array(w, "claims");
		for (i = 0; i < V_NR_CLAIMS; i++) {
			jw_object(w, NULL);
			jw_string(w, "claim", c[i].claim);
			jw_string(w, "verdict", v_verdict_name(c[i].verdict));
			jw_string(w, "evidence", c[i].evidence);
			jw_end_object(w);
		}
		jw_end_array(w);
		jw_end_object(w);
	}
	jw_end_array(w);
}

void compare_json(FILE *f, const char *pa, const struct v_results *a, const char *pb,
		  const struct v_results *b)
{
	struct jw w;
	size_t i;

	jw_document(&w, f, FORMAT_NAME, FORMAT_VERSION);
	file_json(&w, "base", pa, a);
	file_json(&w, "other", pb, b);
	jw_double(&w, "min_change", V_MIN_CHANGE);
	jw_array(&w, "quantities");
	for (i = 0; i < v_nr_columns; i++)
		if (v_column_shown(&v_columns[i], a, b))
			quantity_json(&w, a, b, &v_columns[i]);
	jw_end_array(&w);
	census_json(&w, a, b);
	verdicts_json(&w, a, b);
	jw_end_object(&w);
}
