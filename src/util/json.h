/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_JSON_H
#define __GUPSTAT_UTIL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

/*
 * The one way gupstat writes JSON (live -j and -P, the Perfetto export,
 * validate's results file): a streaming writer that places commas and
 * escapes every string, key or value, per RFC 8259. Text that is not
 * UTF-8 (a process's comm is any bytes) comes out as U+FFFD, so the
 * output is always valid JSON.
 *
 * @key names the member inside an object; it is NULL for an element of
 * an array or the top-level value. A top-level value ends with a
 * newline: successive ones make NDJSON.
 */
#define JW_DEPTH_MAX	16

struct jw {
	FILE *f;
	bool pretty;			/* two-space indent, a member per line */
	int depth;
	bool first[JW_DEPTH_MAX];	/* nothing yet in the container */
	bool brk;			/* a line break before what comes next */
};

void jw_init(struct jw *w, FILE *f, bool pretty);
/*
 * A pretty-printed document of gupstat's own formats: jw_init() and the
 * top-level object opened with its "format" and "version", the two
 * members every reader checks first. The caller closes the object.
 */
void jw_document(struct jw *w, FILE *f, const char *format, long long version);

void jw_object(struct jw *w, const char *key);
void jw_end_object(struct jw *w);
void jw_array(struct jw *w, const char *key);
void jw_end_array(struct jw *w);

/* @s NULL writes null. */
void jw_string(struct jw *w, const char *key, const char *s);
/* At most @n bytes of @s (a fixed-size field, maybe not terminated). */
void jw_stringn(struct jw *w, const char *key, const char *s, size_t n);
void jw_u64(struct jw *w, const char *key, __u64 v);
void jw_i64(struct jw *w, const char *key, long long v);
/* Not finite writes null: JSON has no NaN. */
void jw_double(struct jw *w, const char *key, double v);
/* @v thousandths as a decimal: nanoseconds as microseconds, exactly. */
void jw_milli(struct jw *w, const char *key, __u64 v);
void jw_bool(struct jw *w, const char *key, bool v);
/*
 * @realtime_ns (CLOCK_REALTIME) as RFC 3339 in UTC, to the microsecond:
 * "2026-12-03T15:40:01.123456Z", the one way gupstat's JSON says when.
 */
void jw_time(struct jw *w, const char *key, __u64 realtime_ns);
/* A line break before what comes next in a compact document. */
void jw_break(struct jw *w);

#endif /* __GUPSTAT_UTIL_JSON_H */
