// SPDX-License-Identifier: GPL-2.0
/*
 * util/json: commas, nesting and escapes, compact and pretty, RFC 3339
 * times; and the live view's -P record of a process whose name would
 * break NDJSON.
 */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "util/json.h"
#include "live/print.h"
#include "live/procs.h"

static char *buf;
static size_t len;

static FILE *start(void)
{
	free(buf);
	buf = NULL;
	return open_memstream(&buf, &len);
}

static const char *done(FILE *f)
{
	fclose(f);
	return buf;
}

int main(void)
{
	struct proc_stats ps = { .t.walk_pages = 7, .t.longterm_pages = 3 };
	/* 2026-12-03T15:40:01.123456789Z, and 1 s of CLOCK_MONOTONIC */
	struct live_stamp t = { 1796312401123456789ULL, 1000000000ULL, false };
	struct procs_out po = { .json = &t };
	struct jw w;
	FILE *f;

	f = start();
	jw_init(&w, f, false);
	jw_object(&w, NULL);
	jw_string(&w, "s", "a\"b\\c\n\t\x01\x1b[31m\x7f");
	jw_array(&w, "a");
	jw_u64(&w, NULL, 1);
	jw_i64(&w, NULL, -2);
	jw_double(&w, NULL, 0.5);
	jw_double(&w, NULL, 40000);
	jw_double(&w, NULL, 0.0 / 0.0);
	jw_end_array(&w);
	jw_object(&w, "e");
	jw_end_object(&w);
	jw_string(&w, "n", NULL);
	jw_milli(&w, "us", 12345);
	jw_bool(&w, "b", true);
	jw_end_object(&w);
	CHECK(!strcmp(done(f), "{\"s\":\"a\\\"b\\\\c\\n\\t\\u0001\\u001b[31m\\u007f\",\"a\":[1,-2,0.5,40000.0,null],\"e\":{},\"n\":null,\"us\":12.345,\"b\":true}\n"),
	      "compact: escapes, numbers, empty and null: %s", buf);

	f = start();
	jw_init(&w, f, false);
	jw_string(&w, NULL, "caf\xc3\xa9 \xff \xc3 \xe2\x82\xac \xed\xa0\x80");
	CHECK(!strcmp(done(f), "\"caf\xc3\xa9 \\ufffd \\ufffd \xe2\x82\xac \\ufffd\\ufffd\\ufffd\"\n"),
	      "UTF-8 kept, anything else U+FFFD: %s", buf);

	f = start();
	jw_init(&w, f, true);
	jw_object(&w, NULL);
	jw_i64(&w, "v", 1);
	jw_array(&w, "r");
	jw_object(&w, NULL);
	jw_string(&w, "k", "x");
	jw_end_object(&w);
	jw_end_array(&w);
	jw_end_object(&w);
	CHECK(!strcmp(done(f), "{\n  \"v\":1,\n  \"r\":[\n    {\n      \"k\":\"x\"\n    }\n  ]\n}\n"),
	      "pretty: two-space indent, as the results file always had");

	f = start();
	jw_init(&w, f, false);
	jw_object(&w, NULL);
	jw_break(&w);
	jw_array(&w, "x");
	jw_u64(&w, NULL, 1);
	jw_break(&w);
	jw_u64(&w, NULL, 2);
	jw_break(&w);
	jw_end_array(&w);
	jw_end_object(&w);
	CHECK(!strcmp(done(f), "{\n\"x\":[1,\n2\n]}\n"), "breaks: after the comma");

	f = start();
	jw_init(&w, f, false);
	jw_array(&w, NULL);
	jw_time(&w, NULL, 1796312401123456789ULL);
	jw_time(&w, NULL, 0);
	jw_time(&w, NULL, 999);
	jw_end_array(&w);
	CHECK(!strcmp(done(f), "[\"2026-12-03T15:40:01.123456Z\",\"1970-01-01T00:00:00.000000Z\",\"1970-01-01T00:00:00.000000Z\"]\n"),
	      "RFC 3339 in UTC, microseconds truncated: %s", buf);
	setenv("TZ", "America/New_York", 1);
	f = start();
	jw_init(&w, f, false);
	jw_time(&w, NULL, 1796312401123456789ULL);
	CHECK(!strcmp(done(f), "\"2026-12-03T15:40:01.123456Z\"\n"), "TZ changes nothing: %s", buf);
	unsetenv("TZ");

	memcpy(ps.comm, "a\"b\nc", 6);
	f = start();
	procs_print_json(f, 42, &ps, &po);
	CHECK(!strcmp(done(f), "{\"type\":\"proc\",\"time\":\"2026-12-03T15:40:01.123456Z\",\"ts_ns\":1000000000,\"data\":{\"pid\":42,\"comm\":\"a\\\"b\\nc\",\"walk_calls\":0,\"walk_pages\":7,\"gup_calls\":0,\"gup_pages\":0,\"pin_pages\":0,\"longterm_pin_pages\":3,\"unpin_calls\":0,\"unpin_pages\":0,\"longterm_pages\":3}}\n"),
	      "-P: a process named a\"b is escaped, the record stamped, longterm_pin_pages and the deprecated longterm_pages alike: %s", buf);
	memset(ps.comm, 'x', sizeof(ps.comm));
	f = start();
	procs_print_json(f, 1, &ps, &po);
	CHECK(strstr(done(f), "\"comm\":\"xxxxxxxxxxxxxxxx\","), "-P: a comm without its NUL stops at 16 bytes");
	ps.t.pte_waits = 5;
	ps.t.pte_wait_ns = 12345;
	f = start();
	procs_print_json(f, 1, &ps, &po);
	CHECK(!strstr(done(f), "pte_wait"), "-P without --waits: no wait counts: %s", buf);
	po.waits = true;
	f = start();
	procs_print_json(f, 1, &ps, &po);
	CHECK(strstr(done(f), "\"unpin_pages\":0,\"pte_waits\":5,\"pte_wait_ns\":12345,\"longterm_pages\":3}"),
	      "-P with --waits: the waiter's spins and nanoseconds: %s", buf);
	free(buf);
	return check_done();
}
