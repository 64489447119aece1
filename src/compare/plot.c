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

static void xml(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<' || *s == '>' || *s == '&' || *s == '"')
			fprintf(f, "&#%d;", *s);
		else
			fputc(*s, f);
	}
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
	double d;

	for (d = ax->lo; d <= ax->hi + 1e-9; d++) {
		double y = y_of(ax, pow(10, d));

		fprintf(f, "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#ddd'/>\n",
			LEFT, y, W - RIGHT, y);
		fprintf(f, "<text x='%d' y='%.1f' text-anchor='end' font-size='12'>%g us</text>\n",
			LEFT - 6, y + 4, pow(10, d));
	}
	fprintf(f, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#000'/>\n", LEFT, TOP, LEFT,
		TOP + PLOT_H);
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
	fprintf(f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'><title>median %.1f us, p25 %.1f, p75 %.1f, n %d</title></rect>\n",
		x, y, w, base - y, colour, m.median / 1e3, m.p25 / 1e3, m.p75 / 1e3, m.n);
	fprintf(f, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#000'/>\n",
		x + w / 2, y_of(ax, m.p25 / 1e3), x + w / 2, y_of(ax, m.p75 / 1e3));
}

static void draw_groups(FILE *f, const struct axis *ax, const struct v_results *r[2])
{
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
		fprintf(f, "<text x='%.1f' y='%d' text-anchor='middle' font-size='12'>%s %u MB</text>\n",
			x + gw / 2, TOP + PLOT_H + 18, v_folio_names[run[0]->folio], run[0]->size_mb);
		x += gw;
	}
}

static void draw_legend(FILE *f)
{
	int k;

	for (k = 0; k < NR_KINDS; k++) {
		int x = LEFT + k * 220, y = H - 50;

		fprintf(f, "<rect x='%d' y='%d' width='14' height='14' fill='%s'/>\n", x, y,
			kinds[k].colour);
		fprintf(f, "<text x='%d' y='%d' font-size='13'>%s</text>\n", x + 20, y + 12,
			kinds[k].label);
	}
}

int compare_plot(FILE *f, const struct v_results *base, const struct v_results *other,
		 const char *base_name, const char *other_name)
{
	const struct v_results *r[2] = { base, other };
	struct axis ax;

	axis_fit(&ax, r);
	fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif'>\n",
		W, H);
	fprintf(f, "<rect width='100%%' height='100%%' fill='#fff'/>\n");
	fprintf(f, "<text x='%d' y='28' font-size='17'>unpin_user_pages(), one call per range: median and p25-p75</text>\n",
		LEFT);
	fprintf(f, "<text x='%d' y='50' font-size='13'>base: ", LEFT);
	xml(f, base->kernel);
	fputs(" (", f);
	xml(f, base_name);
	fputs(")   other: ", f);
	xml(f, other->kernel);
	fputs(" (", f);
	xml(f, other_name);
	fputs(")</text>\n", f);
	draw_axis(f, &ax);
	draw_groups(f, &ax, r);
	draw_legend(f);
	fprintf(f, "<text x='%d' y='%d' font-size='11'>%u repeats each; caches evicted by reading %lu MB between pin and unpin</text>\n",
		LEFT, H - 12, base->repeats, base->evict_bytes >> 20);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
