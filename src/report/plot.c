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
#include "util/svg.h"

#define W		960
#define H		560
#define LEFT		90
#define RIGHT		30
#define TOP		90
#define BOTTOM		100
#define PLOT_W		(W - LEFT - RIGHT)
#define PLOT_H		(H - TOP - BOTTOM)
#define BAR_COLOUR	"#4477aa"
/* Room above the top decade, in decades, for the tallest bar's count. */
#define Y_HEADROOM	1.3

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

	for (i = 0; i < SUMMARY_LOG2_SLOTS; i++) {
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
	/* Two slots wide, within the histogram: the last slot widens left. */
	if (sp.hi == sp.lo && sp.hi == SUMMARY_LOG2_SLOTS - 1)
		sp.lo--;
	else if (sp.hi == sp.lo)
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
	unsigned int slot = summary_log2_slot(v);
	double lo = slot ? ldexp(1, slot - 1) : 0, width = slot ? lo : 1;
	double into = (v - lo) / width;

	/* The last slot also holds everything above 2^63: its right edge. */
	return slot_x(sp, slot + (into < 1 ? into : 1));
}

static const struct svg_font tick_font = { .size = 11, .fill = "#333", .anchor = "end" };

static void axes(FILE *f, const struct span *sp)
{
	struct svg_font rotated = tick_font;
	char label[32];
	int i, d;

	svg_line(f, LEFT, TOP + PLOT_H, LEFT + PLOT_W, TOP + PLOT_H, "#333", 1, NULL);
	svg_line(f, LEFT, TOP, LEFT, TOP + PLOT_H, "#333", 1, NULL);
	for (d = 0; d <= sp->decades; d++) {
		double y = TOP + PLOT_H - PLOT_H * (d + 1.0) / (sp->decades + Y_HEADROOM);

		svg_line(f, LEFT, y, LEFT + PLOT_W, y, "#ddd", 1, NULL);
		svg_text(f, LEFT - 6, y + 4, &tick_font, "%.0f", pow(10, d));
	}
	rotated.rotate = -45;
	for (i = sp->lo; i <= sp->hi + 1; i++) {
		human_ns(label, sizeof(label), i ? ldexp(1, i - 1) : 0);
		svg_text(f, slot_x(sp, i), TOP + PLOT_H + 14, &rotated, "%s", label);
	}
	svg_text(f, LEFT + PLOT_W / 2, H - 18, &(struct svg_font){ .size = 13, .anchor = "middle" },
		 "hold time (log2 buckets; each bar from its left label to the next)");
	svg_text(f, 24, TOP + PLOT_H / 2,
		 &(struct svg_font){ .size = 13, .anchor = "middle", .rotate = -90 },
		 "holds (log scale)");
}

static void bars(FILE *f, const struct span *sp, const struct trace_summary *s)
{
	static const struct svg_font count_font = { .size = 10, .fill = "#222", .anchor = "middle" };
	double bw = (double)PLOT_W / (sp->hi - sp->lo + 1);
	int i;

	for (i = sp->lo; i <= sp->hi; i++) {
		unsigned long long n = s->hold_log2[i];
		double h = bar_height(sp, n);

		if (!h)
			continue;
		svg_rect(f, slot_x(sp, i) + 1, TOP + PLOT_H - h, bw - 2, h, BAR_COLOUR,
			 "%llu holds", n);
		svg_text(f, slot_x(sp, i) + bw / 2, TOP + PLOT_H - h - 3, &count_font, "%llu", n);
	}
}

/* The percentiles: a dashed line each, named in its colour in the title. */
static const struct {
	const char *name;
	const char *color;
	size_t offset;
} markers[] = {
	{ "p50", "#228833", offsetof(struct summary_dist, p50) },
	{ "p90", "#bb9900", offsetof(struct summary_dist, p90) },
	{ "p99", "#ee6677", offsetof(struct summary_dist, p99) },
	{ "max", "#aa3377", offsetof(struct summary_dist, max) },
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

		svg_line(f, x, TOP, x, TOP + PLOT_H, markers[i].color, 2, "6,4");
	}
}

static void title(FILE *f, struct trace_file *tf, const struct trace_summary *s)
{
	size_t i;

	svg_text(f, LEFT, 28, &(struct svg_font){ .size = 18, .bold = true },
		 "PTE-lock hold time per follow_page_pte() call");
	svg_text(f, LEFT, 50, &(struct svg_font){ .size = 12 }, "kernel %s, %zu holds, %llu lost; %s",
		 trace_file_string(tf, "kernel") ?: "", s->n, (unsigned long long)tf->lost,
		 trace_file_string(tf, "method") ?: "");
	svg_text_begin(f, LEFT, 70, &(struct svg_font){ .size = 12, .bold = true });
	for (i = 0; s->n && i < NR_MARKERS; i++)
		svg_tspan(f, markers[i].color, "%s%s %llu ns", i ? ",  " : "- - -  ",
			  markers[i].name, (unsigned long long)marker_value(s, i));
	svg_text_end(f);
}

int export_plot(FILE *f, struct trace_file *tf, const struct trace_summary *s)
{
	struct span sp = span_of(s);

	svg_begin(f, W, H);
	title(f, tf, s);
	axes(f, &sp);
	bars(f, &sp, s);
	if (s->n)
		marker_lines(f, &sp, s);
	else
		svg_text(f, LEFT + PLOT_W / 2, TOP + PLOT_H / 2,
			 &(struct svg_font){ .size = 16, .anchor = "middle" }, "no holds in this trace");
	svg_end(f);
	return 0;
}
