/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_SVG_H
#define __GUPSTAT_UTIL_SVG_H

#include <stdbool.h>
#include <stdio.h>

/*
 * The one way gupstat draws SVG (report --plot, compare --plot): a
 * self-contained document, no script, no external font or file, so that
 * it opens in any browser or document. Every piece of text goes through
 * one XML escaper, whatever file it came from.
 */

/* How a text is set; zero values are the defaults (12 px, black, start). */
struct svg_font {
	int size;
	const char *fill;
	const char *anchor;	/* "start", "middle", "end" */
	bool bold;
	int rotate;		/* degrees, about the text's anchor */
};

/* The XML declaration, <svg>, and a white background. */
void svg_begin(FILE *f, int width, int height);
void svg_end(FILE *f);

/* @title: a tooltip (printf format), or NULL. */
void svg_rect(FILE *f, double x, double y, double w, double h, const char *fill,
	      const char *title, ...) __attribute__((format(printf, 7, 8)));
/* @dash: a stroke-dasharray ("6,4"), or NULL for a solid line. */
void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke,
	      double width, const char *dash);
void svg_text(FILE *f, double x, double y, const struct svg_font *font,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* A text in runs of their own colour: begin, tspans, end. */
void svg_text_begin(FILE *f, double x, double y, const struct svg_font *font);
void svg_tspan(FILE *f, const char *fill, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void svg_text_end(FILE *f);

/* @s as XML character data or attribute value. */
void svg_escape(FILE *f, const char *s);

#endif /* __GUPSTAT_UTIL_SVG_H */
