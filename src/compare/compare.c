// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat compare BASE.json OTHER.json: two gupstat validate results side
 * by side in the tester's shape (base -> other, with the ratio), then a
 * verdict per claim and per folio size, each with the evidence it rests
 * on; or all of it as JSON (-j, json.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare/compare.h"
#include "compare/options.h"
#include "util/output.h"
#include "util/msg.h"
#include "util/input.h"

static void cell(char *buf, size_t len, const struct v_series *s, double scale)
{
	struct v_summary m;

	v_summarise(s, &m);
	if (!m.n)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f [%.1f-%.1f]", m.median / scale, m.p25 / scale, m.p75 / scale);
}

static void table(const struct v_results *a, const struct v_results *b, const struct v_column *c)
{
	char x[48], y[48];
	const struct v_run *ra, *rb;
	struct v_summary ma, mb;
	int i;

	printf("\n%s%s (median [p25-p75]; ratio base/other, above 1: other is lower)\n", c->title,
	       c->scale == 1e3 ? ", us" : "");
	printf("%-5s %6s  %-28s    %-28s %8s  %s\n", "folio", "MB", "base", "other", "ratio", "");
	for (i = 0; i < a->nr_runs; i++) {
		ra = &a->runs[i];
		rb = v_find_run(b, ra->folio, ra->size_mb);
		if (!rb)
			continue;
		cell(x, sizeof(x), v_column_series(ra, c), c->scale);
		cell(y, sizeof(y), v_column_series(rb, c), c->scale);
		v_summarise(v_column_series(ra, c), &ma);
		v_summarise(v_column_series(rb, c), &mb);
		printf("%-5s %6u  %-28s -> %-28s", v_folio_names[ra->folio], ra->size_mb, x, y);
		if (ma.n && mb.n && mb.median > 0)
			printf(" %7.2fx  %s\n", ma.median / mb.median,
			       v_change_of(v_column_series(ra, c), v_column_series(rb, c)) == VCH_SAME ? "" : "changed");
		else
			printf(" %8s\n", "-");
	}
}

static void census(const struct v_results *a, const struct v_results *b)
{
	const struct v_run *ra, *rb;
	int i;

	printf("\ncensus (one untimed repeat): folios in the range, refcount grabs in the pin, folio puts in the unpin\n");
	printf("%-5s %6s %8s %8s  %17s  %17s\n", "folio", "MB", "pages", "folios", "grabs base->other",
	       "puts base->other");
	for (i = 0; i < a->nr_runs; i++) {
		ra = &a->runs[i];
		rb = v_find_run(b, ra->folio, ra->size_mb);
		if (rb)
			printf("%-5s %6u %8lu %8lu  %8.0f->%-8.0f  %8.0f->%-8.0f\n",
			       v_folio_names[ra->folio], ra->size_mb, ra->pages, ra->folios,
			       ra->census.grabs, rb->census.grabs, ra->census.puts, rb->census.puts);
	}
}

static void header(const char *pa, const struct v_results *a, const char *pb,
		   const struct v_results *b)
{
	/* The files' names are text from outside, as what is in them. */
	printf("base:  %s: %s, walk returns a %s, %u repeats, counter %s\n", input_safe(pa), a->kernel,
	       a->walk, a->repeats, a->event[0] ? a->event : "none");
	printf("other: %s: %s, walk returns a %s, %u repeats, counter %s\n", input_safe(pb), b->kernel,
	       b->walk, b->repeats, b->event[0] ? b->event : "none");
	if (!a->event[0] || !b->event[0])
		printf("no counter: %s\n", a->event[0] ? b->no_event_reason : a->no_event_reason);
	if (a->sim_model[0])
		printf("base simulated cache:  %s\n", a->sim_model);
	if (b->sim_model[0])
		printf("other simulated cache: %s\n", b->sim_model);
}

static void verdicts(const struct v_results *a, const struct v_results *b)
{
	struct v_claim c[V_NR_CLAIMS];
	int f, i;

	printf("\nverdicts (changed: medians 10%% or more apart and interquartile ranges apart)\n");
	for (f = 0; f < VF_NR; f++) {
		if (v_claims(a, b, f, c))
			continue;
		printf("%s folios:\n", v_folio_names[f]);
		for (i = 0; i < V_NR_CLAIMS; i++)
			printf("  %-14s %s\n  %14s %s\n", v_verdict_name(c[i].verdict), c[i].claim,
			       "", c[i].evidence);
	}
}

static void print_all(const char *pa, const struct v_results *a, const char *pb,
		      const struct v_results *b)
{
	size_t i;

	header(pa, a, pb, b);
	for (i = 0; i < v_nr_columns; i++)
		if (v_column_shown(&v_columns[i], a, b))
			table(a, b, &v_columns[i]);
	census(a, b);
	verdicts(a, b);
}

/* The plot is opened before the tables print: a bad path prints nothing. */
static int compare(const char *pa, const char *pb, const char *plot_path, bool json)
{
	const char *const inputs[] = { pa, pb, NULL };
	struct v_results *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct output out = {};
	int err;

	err = !a || !b ? -ENOMEM : v_results_read(pa, a) ?: v_results_read(pb, b);
	if (err == -ENOMEM)
		p_err("out of memory\n");
	if (!err && plot_path)
		err = output_open(&out, plot_path, inputs);
	if (!err) {
		if (json)
			compare_json(stdout, pa, a, pb, b);
		else
			print_all(pa, a, pb, b);
		if (plot_path) {
			compare_plot(out.f, a, b, pa, pb);
			err = output_commit(&out);
		}
	}
	free(a);
	free(b);
	return err;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	int err;

	err = compare_opts_parse(&o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	return compare(o.base, o.other, o.plot, o.json) ? 1 : 0;
}
