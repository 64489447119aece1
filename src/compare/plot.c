// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat compare --plot: the unpin times of both kernels as a
 * self-contained SVG. One group of bars per folio and range size: base
 * and other, warm and after evicting the caches; the bar is the median,
 * the whisker the interquartile range. Log y axis: 16 MB and 256 MB
 * differ sixteenfold and both must stay readable.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include "compare/compare.h"
#include "util/svg.h"

#define W	1000
#define H	520
#define LEFT	80
#define RIGHT	20
#define TOP	70
#define BOTTOM	110
#define PLOT_W	(W - LEFT - RIGHT)
#define PLOT_H	(H - TOP - BOTTOM)

struct bar_kind {
	const char *label;
	const char *colour;
	int side;		/* 0: base, 1: other */
	enum v_cond cond;
};

static const struct bar_kind kinds[] = {
	{ "base, warm", "#4c72b0", 0, VC_WARM },
	{ "other, warm", "#dd8452", 1, VC_WARM },
	{ "base, caches evicted", "#a6bddb", 0, VC_COLD },
	{ "other, caches evicted", "#f5c59a", 1, VC_COLD },
};

#define NR_KINDS	(int)(sizeof(kinds) / sizeof(kinds[0]))

struct axis {
	double lo, hi;	/* log10 of microseconds */
};

static double y_of(const struct axis *ax, double us)
{
	double l = log10(us > 0.01 ? us : 0.01);

	return TOP + PLOT_H - (l - ax->lo) / (ax->hi - ax->lo) * PLOT_H;
}

/* Whole decades around every median and quartile. */
static void axis_fit(struct axis *ax, const struct v_results *r[2])
{
	double lo = 1e300, hi = 0;
	struct v_summary m;
	int s, i, c;

	for (s = 0; s < 2; s++)
		for (i = 0; i < r[s]->nr_runs; i++)
			for (c = 0; c < VC_NR; c++) {
				v_summarise(&r[s]->runs[i].cond[c].unpin_ns, &m);
				if (!m.n)
					continue;
				lo = fmin(lo, m.p25 / 1e3);
				hi = fmax(hi, m.p75 / 1e3);
			}
	if (hi <= 0) {
		lo = 1;
		hi = 10;
	}
	ax->lo = floor(log10(fmax(lo, 0.01)));
	ax->hi = ceil(log10(hi));
	if (ax->hi <= ax->lo)
		ax->hi = ax->lo + 1;
}

static void draw_axis(FILE *f, const struct axis *ax)
{
	static const struct svg_font tick = { .anchor = "end" };
	double d;

	for (d = ax->lo; d <= ax->hi + 1e-9; d++) {
		double y = y_of(ax, pow(10, d));

		svg_line(f, LEFT, y, W - RIGHT, y, "#ddd", 1, NULL);
		svg_text(f, LEFT - 6, y + 4, &tick, "%g us", pow(10, d));
	}
	svg_line(f, LEFT, TOP, LEFT, TOP + PLOT_H, "#000", 1, NULL);
}

static void draw_bar(FILE *f, const struct axis *ax, const struct v_series *s, double x,
		     double w, const char *colour)
{
	struct v_summary m;
	double y, base = TOP + PLOT_H;

	v_summarise(s, &m);
	if (!m.n)
		return;
	y = y_of(ax, m.median / 1e3);
	svg_rect(f, x, y, w, base - y, colour, "median %.1f us, p25 %.1f, p75 %.1f, n %d",
		 m.median / 1e3, m.p25 / 1e3, m.p75 / 1e3, m.n);
	svg_line(f, x + w / 2, y_of(ax, m.p25 / 1e3), x + w / 2, y_of(ax, m.p75 / 1e3), "#000", 1,
		 NULL);
}

static void draw_groups(FILE *f, const struct axis *ax, const struct v_results *r[2])
{
	static const struct svg_font label = { .anchor = "middle" };
	const struct v_run *run[2];
	double gw, bw, x;
	int i, k, n = 0;

	for (i = 0; i < r[0]->nr_runs; i++)
		n += v_find_run(r[1], r[0]->runs[i].folio, r[0]->runs[i].size_mb) != NULL;
	if (!n)
		return;
	gw = (double)PLOT_W / n;
	bw = gw * 0.8 / NR_KINDS;
	for (i = 0, x = LEFT; i < r[0]->nr_runs; i++) {
		run[0] = &r[0]->runs[i];
		run[1] = v_find_run(r[1], run[0]->folio, run[0]->size_mb);
		if (!run[1])
			continue;
		for (k = 0; k < NR_KINDS; k++)
			draw_bar(f, ax, &run[kinds[k].side]->cond[kinds[k].cond].unpin_ns,
				 x + gw * 0.1 + k * bw, bw, kinds[k].colour);
		svg_text(f, x + gw / 2, TOP + PLOT_H + 18, &label, "%s %u MB",
			 v_folio_names[run[0]->folio], run[0]->size_mb);
		x += gw;
	}
}

static void draw_legend(FILE *f)
{
	static const struct svg_font font = { .size = 13 };
	int k;

	for (k = 0; k < NR_KINDS; k++) {
		int x = LEFT + k * 220, y = H - 50;

		svg_rect(f, x, y, 14, 14, kinds[k].colour, NULL);
		svg_text(f, x + 20, y + 12, &font, "%s", kinds[k].label);
	}
}

void compare_plot(FILE *f, const struct v_results *base, const struct v_results *other,
		  const char *base_name, const char *other_name)
{
	const struct v_results *r[2] = { base, other };
	struct axis ax;

	axis_fit(&ax, r);
	svg_begin(f, W, H);
	svg_text(f, LEFT, 28, &(struct svg_font){ .size = 17 },
		 "unpin_user_pages(), one call per range: median and p25-p75");
	svg_text(f, LEFT, 50, &(struct svg_font){ .size = 13 }, "base: %s (%s)   other: %s (%s)",
		 base->kernel, base_name, other->kernel, other_name);
	draw_axis(f, &ax);
	draw_groups(f, &ax, r);
	draw_legend(f);
	svg_text(f, LEFT, H - 12, &(struct svg_font){ .size = 11 },
		 "%u repeats each; caches evicted by reading %lu MB between pin and unpin",
		 base->repeats, base->evict_bytes >> 20);
	svg_end(f);
}
