// SPDX-License-Identifier: GPL-2.0
/*
 * Values a file may hold that no kernel gives: a hold of 2^63 ns or
 * 2^64 - 1 ns, a start plus hold past 2^64. Every index and sum computed
 * from them stays in range (run under UBSan: docs/trace.md), and report,
 * --plot and --perfetto say the values as they are.
 */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "synth.h"
#include "capture.h"
#include "scratch.h"
#include "report/report.h"

static char *trace, *txt, *svg, *json, *errf;
static char buf[1 << 16];

static const char *slurp(const char *path)
{
	return capture_read(path, buf, sizeof(buf));
}

/* cmd_report with its stdout into txt and stderr into errf. */
static int run(char **argv, int argc)
{
	return capture_run(cmd_report, argc, argv, txt, errf);
}

/* Every x, x1 and x2 in the SVG a finite number inside its 960-wide page. */
static bool xs_inside(const char *s)
{
	static const char *const attrs[] = { " x=\"", " x1=\"", " x2=\"" };
	const char *p;
	size_t i;
	int n = 0;

	for (i = 0; i < 3; i++) {
		for (p = strstr(s, attrs[i]); p; p = strstr(p + 1, attrs[i])) {
			double x = strtod(p + strlen(attrs[i]), NULL);

			if (!isfinite(x) || x < 0 || x > 960)
				return false;
			n++;
		}
	}
	return n > 10;
}

/* jq's answer to @filter over the Perfetto file, first line. */
static const char *jq(const char *filter)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "jq -r '%s' %s 2>&1", filter, json);
	return capture_first_line(cmd, buf, sizeof(buf));
}

/*
 * One hold of @hold ns starting at @ts, between two ordinary ones or
 * (@alone) two as long: the report, the plot and the timeline.
 */
static void one(const char *what, __u64 ts, __u64 hold, const char *max_text,
		const char *dur, bool alone)
{
	struct trace_rec r[3] = { synth_rec(0, alone ? hold : 700), synth_rec(1, hold),
				  synth_rec(2, alone ? hold : 900) };
	char *argv[] = { "report", "-n", "1", "--plot", svg, "--perfetto", json, trace, NULL };
	char want[128];
	int rc;

	r[1].ts_ns = ts;
	CHECK(synth_write(trace, r, 3, 0) == 0, "%s: written", what);
	rc = run(argv, 8);
	CHECK(rc == 0 && !slurp(errf)[0], "%s: report exits 0, quiet (rc %d, '%s')", what, rc, buf);
	snprintf(want, sizeof(want), "max %s ns", max_text);
	CHECK(strstr(slurp(txt), want) && strstr(buf, "#1   ") && strstr(buf, max_text),
	      "%s: the text says %s, and it is the longest", what, want);
	/* The last log2 slot holds everything from 2^62 up. */
	snprintf(want, sizeof(want), "4611686018427387904 -> 9223372036854775807 : %d ",
		 alone ? 3 : 1);
	CHECK(hold < (1ULL << 62) || strstr(buf, want), "%s: its log2 row, the last", what);
	slurp(svg);
	CHECK(strstr(buf, "</svg>") && !strstr(buf, "nan") && !strstr(buf, "inf") && xs_inside(buf),
	      "%s: the plot draws every mark inside the page", what);
	CHECK(!strcmp(jq("[.traceEvents[] | select(.ph == \"X\")] | length"), "3"),
	      "%s: three slices: %s", what, buf);
	/* As written, not as jq's doubles round it. */
	snprintf(want, sizeof(want), "\"dur\":%s,", dur);
	CHECK(strstr(slurp(json), want), "%s: the longest slice: %s", what, want);
}

int main(void)
{
	trace = scratch("t.gt");
	txt = scratch("t.txt");
	svg = scratch("t.svg");
	json = scratch("t.json");
	errf = scratch("err");
	one("hold 2^63", SYNTH_START_NS + 6000, 1ULL << 63, "9223372036854775808",
	    "9223372036854775.808", false);
	/* Every hold in the last log2 slot: the plot once drew slot 64. */
	one("only holds of 2^63", SYNTH_START_NS + 6000, 1ULL << 63, "9223372036854775808",
	    "9223372036854775.808", true);
	one("hold 2^64 - 1", SYNTH_START_NS + 6000, ~0ULL, "18446744073709551615",
	    "18446744073709551.615", false);
	one("only holds of 2^64 - 1", SYNTH_START_NS + 6000, ~0ULL, "18446744073709551615",
	    "18446744073709551.615", true);
	one("start + hold past 2^64", ~0ULL - 1000, 5000, "5000", "5.000", false);
	return check_done();
}
