// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat report on made-up traces: the text, the Perfetto JSON (checked
 * with jq: valid, one "X" slice per hold, the right times) and the SVG's
 * parts; bad files and bad options give one line and exit 1 or 2.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "report/export.h"
#include "synth.h"
#include "capture.h"
#include "report/report.h"
#include "report/text.h"
#include "util/msg.h"

static char dir[] = "/tmp/gupstat-report-XXXXXX";
static char trace[128], json[128], svg[128], err_log[128];
static char out[1 << 16];

static bool err_one_line;

static const char *slurp(const char *path)
{
	return capture_read(path, out, sizeof(out));
}

/* Exactly one line; then drop its newline, for the TAP message. */
static bool one_line(char *s)
{
	char *nl = strchr(s, '\n');

	if (!nl || nl[1])
		return false;
	*nl = '\0';
	return true;
}

/* The first line of @cmd's output, without its newline. */
static const char *first_line(const char *cmd)
{
	return capture_first_line(cmd, out, sizeof(out));
}

/* cmd_report with stdout and stderr captured: exit code, stderr in out. */
static int run_report(int argc, char **argv, const char *stdout_path)
{
	int rc = capture_run(cmd_report, argc, argv, stdout_path, err_log);

	slurp(err_log);
	err_one_line = one_line(out);
	return rc;
}

static void text(void)
{
	char txt[160];
	char *argv[] = { "report", "-n", "2", trace, NULL };
	int rc;

	snprintf(txt, sizeof(txt), "%s/report.txt", dir);
	rc = run_report(4, argv, txt);
	CHECK(rc == 0 && !out[0], "report exits 0, nothing on stderr (%d, '%s')", rc, out);
	slurp(txt);
	CHECK(strstr(out, "kernel 6.12.117-gupstat-test"), "names the kernel");
	CHECK(strstr(out, "hold: count 6, min 800, p50 900, p90 5000, p99 5000, max 5000 ns (5.0 us)"),
	      "count and percentiles");
	CHECK(strstr(out, "      4096 -> 8191       : 1 "), "log2 row of the longest hold");
	CHECK(strstr(out, "        512        : 1        |"), "pages row for 512");
	CHECK(strstr(out, "gup_fill_pages() inside the hold: 1 of 6 holds; 20.0% of those holds' time"),
	      "fill share");
	CHECK(strstr(out, " #1   5000 ns at +0.000011000 s, cpu 1, pid 101 tid 202 (gup_test)"),
	      "longest hold first, with time, cpu and task");
	CHECK(strstr(out, "FOLL_WRITE|FOLL_LONGTERM|FOLL_PIN"), "flags named from the file");
	CHECK(strstr(out, "         process_vm_rw_core+0x2c0\n"), "its stack, symbolised");
	CHECK(!strstr(out, " #3 "), "-n 2 shows two");
	CHECK(!strstr(out, "ffffffff8"), "no kernel address in the text");
}

static void perfetto(void)
{
	char cmd[512], txt[160];
	char *argv[] = { "report", "-n", "0", "--perfetto", json, "--plot", svg, trace, NULL };
	int rc;

	snprintf(txt, sizeof(txt), "%s/report.txt", dir);
	rc = run_report(8, argv, txt);
	CHECK(rc == 0, "report with exports exits 0 ('%s')", out);
	snprintf(cmd, sizeof(cmd),
		 "jq -r '[.traceEvents[] | select(.ph == \"X\")] | \"\\(length) \\(.[1].ts) \\(.[1].dur) \\(.[1].args.pages) \\(.[1].tid)\"' %s 2>&1",
		 json);
	first_line(cmd);
	CHECK(!strcmp(out, "6 5 0.9 1 201"), "Perfetto JSON: 6 slices, 2nd at 5 us for 0.9 us on tid 201: '%s'", out);
	snprintf(cmd, sizeof(cmd),
		 "jq -r '[.traceEvents[] | select(.ph == \"M\" and .name == \"thread_name\")] | length' %s", json);
	first_line(cmd);
	CHECK(!strcmp(out, "5"), "each of the 5 threads named once: '%s'", out);
	slurp(svg);
	CHECK(strstr(out, "<svg xmlns=\"http://www.w3.org/2000/svg\"") && strstr(out, "</svg>"),
	      "an SVG document");
	CHECK(strstr(out, "<title>1 holds</title>") && strstr(out, "PTE-lock hold time"),
	      "bars and a title");
	CHECK(strstr(out, "hold time (log2 buckets") && strstr(out, "holds (log scale)"), "axis labels");
	CHECK(!strstr(out, "<script") && !strstr(out, "href"), "self-contained: no script, no link");
}

static void bad_input(void)
{
	char txt[160], bad[160];
	char *missing[] = { "report", NULL };
	char *unknown[] = { "report", "--frobnicate", trace, NULL };
	char *nofile[] = { "report", "/nonexistent/trace", NULL };
	char *corrupt[] = { "report", bad, NULL };
	char *notop[] = { "report", "-n", "x", trace, NULL };
	char *noout[] = { "report", "--plot", "/nonexistent/dir/p.svg", trace, NULL };
	FILE *f;

	snprintf(txt, sizeof(txt), "%s/report.txt", dir);
	snprintf(bad, sizeof(bad), "%s/bad.gt", dir);
	f = fopen(bad, "w");
	fputs("GUPTRACE but nothing else", f);
	fclose(f);
	CHECK(run_report(1, missing, txt) == 2 && err_one_line && strstr(out, "no trace file"),
	      "no file: exit 2, '%s'", out);
	CHECK(run_report(3, unknown, txt) == 2 && err_one_line && strstr(out, "unknown option '--frobnicate'"),
	      "unknown option: exit 2, '%s'", out);
	CHECK(run_report(2, nofile, txt) == 1 && err_one_line &&
	      strstr(out, "gupstat report: /nonexistent/trace: No such file"), "missing file: '%s'", out);
	CHECK(run_report(2, corrupt, txt) == 1 && err_one_line && strstr(out, "gupstat report: ") &&
	      strstr(out, "bad.gt: truncated"), "corrupt file: exit 1, '%s'", out);
	CHECK(run_report(4, notop, txt) == 2 && err_one_line, "-n x: exit 2, '%s'", out);
	CHECK(run_report(4, noout, txt) == 1 && err_one_line && strstr(out, "p.svg"),
	      "unwritable --plot: exit 1, '%s'", out);
}

int main(void)
{
	struct trace_rec recs[6];
	size_t i;

	msg_set_cmd("report");

	if (!mkdtemp(dir))
		return 1;
	snprintf(trace, sizeof(trace), "%s/t.gt", dir);
	snprintf(json, sizeof(json), "%s/t.json", dir);
	snprintf(svg, sizeof(svg), "%s/t.svg", dir);
	snprintf(err_log, sizeof(err_log), "%s/err", dir);
	for (i = 0; i < 6; i++)
		recs[i] = synth_rec(i, 800 + 100 * (i % 3));
	recs[2].hold_ns = 5000;
	recs[2].pid = 101;
	recs[2].tid = 202;
	recs[2].cpu = 1;
	strcpy(recs[2].comm, "gup_test");
	recs[2].stack = SYNTH_STACK_B;
	recs[2].pages = recs[2].stored = 512;
	recs[2].flags |= GT_R_FILL;
	recs[2].fill_ns = 1000;
	recs[2].fills = 1;
	synth_write(trace, recs, 6, GT_F_FILL_PROBED);
	text();
	perfetto();
	bad_input();
	snprintf(out, sizeof(out), "rm -rf %s", dir);
	if (system(out))
		return 1;
	return check_done();
}
