// SPDX-License-Identifier: GPL-2.0
/* A streaming JSON writer (json.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "util/json.h"

void jw_init(struct jw *w, FILE *f, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->pretty = pretty;
	w->first[0] = true;
}

void jw_document(struct jw *w, FILE *f, const char *format, long long version)
{
	jw_init(w, f, true);
	jw_object(w, NULL);
	jw_string(w, "format", format);
	jw_i64(w, "version", version);
}

static void indent(struct jw *w)
{
	int i;

	if (!w->pretty)
		return;
	fputc('\n', w->f);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* The length of the UTF-8 sequence at @s (at most @n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	/* No overlong forms, surrogates, or code points above U+10FFFF. */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (len > n || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static void put_string(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i, len;

	fputc('"', f);
	for (i = 0; i < n && s[i]; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c < 0x20 || c == 0x7f) {
			/* DEL too: it is a terminal control, if not JSON's. */
			fprintf(f, "\\u%04x", c);
		} else if (c < 0x80) {
			fputc(c, f);
		} else if ((len = utf8_len(s + i, strnlen(str + i, n - i)))) {
			fwrite(s + i, 1, len, f);
			i += len - 1;
		} else {
			fputs("\\ufffd", f);
		}
	}
	fputc('"', f);
}

/* What comes before any value: a comma, the indent, the key. */
static void begin(struct jw *w, const char *key)
{
	if (!w->first[w->depth])
		fputc(',', w->f);
	w->first[w->depth] = false;
	if (w->brk)
		fputc('\n', w->f);
	w->brk = false;
	if (w->depth)
		indent(w);
	if (key) {
		put_string(w->f, key, strlen(key));
		fputc(':', w->f);
	}
}

/* After a value: a top-level one ends its line. */
static void end(struct jw *w)
{
	if (!w->depth) {
		fputc('\n', w->f);
		w->first[0] = true;
	}
}

static void open_container(struct jw *w, const char *key, char c)
{
	begin(w, key);
	fputc(c, w->f);
	if (w->depth < JW_DEPTH_MAX - 1)
		w->depth++;
	w->first[w->depth] = true;
}

static void close_container(struct jw *w, char c)
{
	bool empty = w->first[w->depth];

	if (w->depth)
		w->depth--;
	if (w->brk)
		fputc('\n', w->f);
	w->brk = false;
	if (!empty)
		indent(w);
	fputc(c, w->f);
	end(w);
}

void jw_object(struct jw *w, const char *key)
{
	open_container(w, key, '{');
}

void jw_end_object(struct jw *w)
{
	close_container(w, '}');
}

void jw_array(struct jw *w, const char *key)
{
	open_container(w, key, '[');
}

void jw_end_array(struct jw *w)
{
	close_container(w, ']');
}

void jw_stringn(struct jw *w, const char *key, const char *s, size_t n)
{
	begin(w, key);
	if (s)
		put_string(w->f, s, n);
	else
		fputs("null", w->f);
	end(w);
}

void jw_string(struct jw *w, const char *key, const char *s)
{
	jw_stringn(w, key, s, s ? strlen(s) : 0);
}

void jw_u64(struct jw *w, const char *key, __u64 v)
{
	begin(w, key);
	fprintf(w->f, "%llu", (unsigned long long)v);
	end(w);
}

void jw_i64(struct jw *w, const char *key, long long v)
{
	begin(w, key);
	fprintf(w->f, "%lld", v);
	end(w);
}

void jw_double(struct jw *w, const char *key, double v)
{
	char buf[32];

	begin(w, key);
	if (!isfinite(v)) {
		fputs("null", w->f);
	} else {
		/* The shortest of the two that reads back as the same double. */
		snprintf(buf, sizeof(buf), "%.15g", v);
		if (strtod(buf, NULL) != v)
			snprintf(buf, sizeof(buf), "%.17g", v);
		/* Keep it a fraction: 40000.0, as json-c wrote it. */
		if (!strpbrk(buf, ".e"))
			strcat(buf, ".0");
		fputs(buf, w->f);
	}
	end(w);
}

void jw_milli(struct jw *w, const char *key, __u64 v)
{
	begin(w, key);
	fprintf(w->f, "%llu.%03llu", (unsigned long long)v / 1000, (unsigned long long)v % 1000);
	end(w);
}

void jw_bool(struct jw *w, const char *key, bool v)
{
	begin(w, key);
	fputs(v ? "true" : "false", w->f);
	end(w);
}

void jw_time(struct jw *w, const char *key, __u64 realtime_ns)
{
	time_t secs = realtime_ns / 1000000000ULL;
	char buf[40];
	struct tm tm;

	/* UTC: a reader needs no zone table, and TZ changes nothing. */
	if (!gmtime_r(&secs, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm)) {
		jw_string(w, key, NULL);
		return;
	}
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ".%06lluZ",
		 (unsigned long long)(realtime_ns % 1000000000ULL) / 1000);
	jw_string(w, key, buf);
}

void jw_break(struct jw *w)
{
	w->brk = !w->pretty;
}
