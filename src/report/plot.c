// SPDX-License-Identifier: GPL-2.0
/*
 * The hold-time distribution as a self-contained SVG: log2 buckets along
 * x (as the text histogram), holds on a log10 y axis so that the few
 * long holds the review question is about stay visible next to
 * thousands of short ones, and p50/p90/p99/max marked. No script, no
 * external font or file: it opens in any browser, or in a document.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include "report/export.h"

#define W		960
#define H		560
#define LEFT		90
#define RIGHT		30
#define TOP		90
#define BOTTOM		100
#define PLOT_W		(W - LEFT - RIGHT)
#define PLOT_H		(H - TOP - BOTTOM)
/* Room above the top decade, in decades, for the tallest bar's count. */
#define Y_HEADROOM	1.3

/* The reader limits text to printable ASCII; escape what XML needs. */
static void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* A nanosecond count for an axis: 512 ns, 1.0 us, 66 us, 1.0 ms, 2.1 s. */
static void human_ns(char *buf, size_t len, double ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e4)
		snprintf(buf, len, "%.1f us", ns / 1e3);
	else if (ns < 1e6)
		snprintf(buf, len, "%.0f us", ns / 1e3);
	else if (ns < 1e7)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else if (ns < 1e9)
		snprintf(buf, len, "%.0f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.1f s", ns / 1e9);
}

/* The non-empty slot range, at least two slots wide. */
struct span {
	int lo, hi;
	__u64 max;
	int decades;		/* y axis: 10^0 .. 10^decades */
};

static struct span span_of(const struct trace_summary *s)
{
	struct span sp = { .lo = -1, .hi = -1 };
	int i;

	for (i = 0; i < STATS_LOG2_SLOTS; i++) {
		if (!s->hold_log2[i])
			continue;
		if (sp.lo < 0)
			sp.lo = i;
		sp.hi = i;
		if (s->hold_log2[i] > sp.max)
			sp.max = s->hold_log2[i];
	}
	if (sp.lo < 0)
		sp.lo = sp.hi = 10;
	if (sp.hi == sp.lo)
		sp.hi++;
	sp.decades = sp.max > 1 ? (int)ceil(log10((double)sp.max)) : 1;
	return sp;
}

/* Height of a bar of @count: 1 holds still shows (the axis starts at 0.1). */
static double bar_height(const struct span *sp, __u64 count)
{
	if (!count)
		return 0;
	return PLOT_H * (log10((double)count) + 1) / (sp->decades + Y_HEADROOM);
}

static double slot_x(const struct span *sp, double slot)
{
	return LEFT + (slot - sp->lo) * PLOT_W / (sp->hi - sp->lo + 1);
}

/* Where value @v falls: its slot, plus how far into it, linearly. */
static double value_x(const struct span *sp, __u64 v)
{
	unsigned int slot = stats_log2_slot(v);
	double lo = slot ? ldexp(1, slot - 1) : 0, width = slot ? lo : 1;

	return slot_x(sp, slot + (v - lo) / width);
}

static void axes(FILE *f, const struct span *sp)
{
	char label[32];
	int i, d;

	fprintf(f, "<g stroke=\"#333\" stroke-width=\"1\">\n");
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", LEFT, TOP + PLOT_H, LEFT + PLOT_W, TOP + PLOT_H);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n</g>\n", LEFT, TOP, LEFT, TOP + PLOT_H);
	fprintf(f, "<g font-size=\"11\" fill=\"#333\" text-anchor=\"end\">\n");
	for (d = 0; d <= sp->decades; d++) {
		double y = TOP + PLOT_H - PLOT_H * (d + 1.0) / (sp->decades + Y_HEADROOM);

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			LEFT, y, LEFT + PLOT_W, y);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\">%.0f</text>\n", LEFT - 6, y + 4, pow(10, d));
	}
	fprintf(f, "</g>\n<g font-size=\"11\" fill=\"#333\" text-anchor=\"end\">\n");
	for (i = sp->lo; i <= sp->hi + 1; i++) {
		double x = slot_x(sp, i);

		human_ns(label, sizeof(label), i ? ldexp(1, i - 1) : 0);
		fprintf(f, "<text transform=\"translate(%.1f,%d) rotate(-45)\">%s</text>\n",
			x, TOP + PLOT_H + 14, label);
	}
	fprintf(f, "</g>\n");
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\">hold time (log2 buckets; each bar from its left label to the next)</text>\n",
		LEFT + PLOT_W / 2, H - 18);
	fprintf(f, "<text transform=\"translate(24,%d) rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">holds (log scale)</text>\n",
		TOP + PLOT_H / 2);
}

static void bars(FILE *f, const struct span *sp, const struct trace_summary *s)
{
	double bw = (double)PLOT_W / (sp->hi - sp->lo + 1);
	int i;

	fprintf(f, "<g fill=\"#4477aa\">\n");
	for (i = sp->lo; i <= sp->hi; i++) {
		double h = bar_height(sp, s->hold_log2[i]);

		if (!h)
			continue;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>%llu holds</title></rect>\n",
			slot_x(sp, i) + 1, TOP + PLOT_H - h, bw - 2, h,
			(unsigned long long)s->hold_log2[i]);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#222\" text-anchor=\"middle\">%llu</text>\n",
			slot_x(sp, i) + bw / 2, TOP + PLOT_H - h - 3,
			(unsigned long long)s->hold_log2[i]);
	}
	fprintf(f, "</g>\n");
}

/* The percentiles: a dashed line each, named in its colour in the title. */
static const struct {
	const char *name;
	const char *color;
	size_t offset;
} markers[] = {
	{ "p50", "#228833", offsetof(struct stats_dist, p50) },
	{ "p90", "#bb9900", offsetof(struct stats_dist, p90) },
	{ "p99", "#ee6677", offsetof(struct stats_dist, p99) },
	{ "max", "#aa3377", offsetof(struct stats_dist, max) },
};

#define NR_MARKERS	(sizeof(markers) / sizeof(markers[0]))

static __u64 marker_value(const struct trace_summary *s, size_t i)
{
	return *(const __u64 *)((const char *)&s->hold + markers[i].offset);
}

static void marker_lines(FILE *f, const struct span *sp, const struct trace_summary *s)
{
	size_t i;

	for (i = 0; i < NR_MARKERS; i++) {
		double x = value_x(sp, marker_value(s, i));

		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"6,4\"/>\n",
			x, TOP, x, TOP + PLOT_H, markers[i].color);
	}
}

static void title(FILE *f, const struct trace_file *tf, const struct trace_summary *s)
{
	size_t i;

	fprintf(f, "<text x=\"%d\" y=\"28\" font-size=\"18\" font-weight=\"bold\">PTE-lock hold time per follow_page_pte() call</text>\n", LEFT);
	fprintf(f, "<text x=\"%d\" y=\"50\" font-size=\"12\">kernel ", LEFT);
	xml_text(f, trace_file_string(tf, "kernel"));
	fprintf(f, ", %zu holds, %llu lost; ", s->n, (unsigned long long)tf->lost);
	xml_text(f, trace_file_string(tf, "method"));
	fprintf(f, "</text>\n<text x=\"%d\" y=\"70\" font-size=\"12\" font-weight=\"bold\">", LEFT);
	for (i = 0; s->n && i < NR_MARKERS; i++)
		fprintf(f, "<tspan fill=\"%s\">%s%s %llu ns</tspan>", markers[i].color,
			i ? ",  " : "- - -  ", markers[i].name,
			(unsigned long long)marker_value(s, i));
	fprintf(f, "</text>\n");
}

int export_plot(FILE *f, const struct trace_file *tf, const struct trace_summary *s)
{
	struct span sp = span_of(s);

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
		W, H, W, H);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, H);
	title(f, tf, s);
	axes(f, &sp);
	bars(f, &sp, s);
	if (s->n) {
		marker_lines(f, &sp, s);
	} else {
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"16\" text-anchor=\"middle\">no holds in this trace</text>\n",
			LEFT + PLOT_W / 2, TOP + PLOT_H / 2);
	}
	fprintf(f, "</svg>\n");
	return ferror(f) ? -EIO : 0;
}
