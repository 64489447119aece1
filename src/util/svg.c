// SPDX-License-Identifier: GPL-2.0
/* Writing SVG (svg.h). */
#include <stdarg.h>
#include <stdio.h>
#include "util/svg.h"

void svg_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '&')
			fputs("&amp;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c == '\'')
			fputs("&apos;", f);
		else if (c < 0x20 || c == 0x7f)
			fputc('?', f);	/* XML 1.0 has no place for controls */
		else
			fputc(c, f);
	}
}

static void escape_v(FILE *f, const char *fmt, va_list ap)
{
	char buf[512];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	svg_escape(f, buf);
}

void svg_begin(FILE *f, int width, int height)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
		width, height, width, height);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", width, height);
}

void svg_end(FILE *f)
{
	fputs("</svg>\n", f);
}

void svg_rect(FILE *f, double x, double y, double w, double h, const char *fill,
	      const char *title, ...)
{
	va_list ap;

	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"", x, y, w, h);
	svg_escape(f, fill);
	if (!title) {
		fputs("\"/>\n", f);
		return;
	}
	fputs("\"><title>", f);
	va_start(ap, title);
	escape_v(f, title, ap);
	va_end(ap);
	fputs("</title></rect>\n", f);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke,
	      double width, const char *dash)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"", x1, y1, x2, y2);
	svg_escape(f, stroke);
	fprintf(f, "\" stroke-width=\"%g\"", width);
	if (dash) {
		fputs(" stroke-dasharray=\"", f);
		svg_escape(f, dash);
		fputc('"', f);
	}
	fputs("/>\n", f);
}

void svg_text_begin(FILE *f, double x, double y, const struct svg_font *font)
{
	if (font->rotate)
		fprintf(f, "<text transform=\"translate(%.1f,%.1f) rotate(%d)\"", x, y, font->rotate);
	else
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"", x, y);
	fprintf(f, " font-size=\"%d\"", font->size ? font->size : 12);
	if (font->fill) {
		fputs(" fill=\"", f);
		svg_escape(f, font->fill);
		fputc('"', f);
	}
	if (font->anchor) {
		fputs(" text-anchor=\"", f);
		svg_escape(f, font->anchor);
		fputc('"', f);
	}
	if (font->bold)
		fputs(" font-weight=\"bold\"", f);
	fputc('>', f);
}

void svg_tspan(FILE *f, const char *fill, const char *fmt, ...)
{
	va_list ap;

	fputs("<tspan fill=\"", f);
	svg_escape(f, fill);
	fputs("\">", f);
	va_start(ap, fmt);
	escape_v(f, fmt, ap);
	va_end(ap);
	fputs("</tspan>", f);
}

void svg_text_end(FILE *f)
{
	fputs("</text>\n", f);
}

void svg_text(FILE *f, double x, double y, const struct svg_font *font, const char *fmt, ...)
{
	va_list ap;

	svg_text_begin(f, x, y, font);
	va_start(ap, fmt);
	escape_v(f, fmt, ap);
	va_end(ap);
	svg_text_end(f);
}
