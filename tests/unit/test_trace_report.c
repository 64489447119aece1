// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat report on made-up traces: the text, the Perfetto JSON (checked
 * with jq: valid, one "X" slice per hold, the kernel's times to the
 * nanosecond, each hold's stack) and the SVG's parts; with --waits, the
 * longest waits with their holds and both stacks in the text and -j, and
 * in Perfetto a slice per wait and a flow from its hold; the clocks a
 * file may be on; bad files and bad options give one line and exit 1 or 2.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"
#include "report/export.h"
#include "synth.h"
#include "capture.h"
#include "scratch.h"
#include "report/report.h"
#include "report/text.h"
#include "util/msg.h"

static char *trace, *json, *svg, *err_log;
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
	char *txt = scratch("report.txt");
	char *argv[] = { "report", "-n", "2", trace, NULL };
	int rc;

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
	CHECK(strstr(out, "\n  clock: CLOCK_MONOTONIC (the kernel's bpf_ktime_get_ns()), start 1.000000000 s\n"),
	      "the clock and the start on it");
	CHECK(strstr(out, "FOLL_WRITE|FOLL_LONGTERM|FOLL_PIN"), "flags named from the file");
	CHECK(strstr(out, "         process_vm_rw_core+0x2c0\n"), "its stack, symbolised");
	CHECK(!strstr(out, " #3 "), "-n 2 shows two");
	CHECK(!strstr(out, "ffffffff8"), "no kernel address in the text");
}

/* jq's answer to @filter over the Perfetto file, first line, in out. */
static const char *jq(const char *filter)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "jq -r '%s' %s 2>&1", filter, json);
	return first_line(cmd);
}

/*
 * Every slice's ts as written (jq reads numbers as doubles, which round
 * past 2^53): the records' ts_ns, in order, as microseconds with three
 * decimals, on the kernel's clock.
 */
static void perfetto_times(const struct trace_rec *recs, size_t n)
{
	char want[64], *p = (char *)slurp(json);
	size_t i, found = 0;

	for (i = 0; i < n; i++) {
		snprintf(want, sizeof(want), "\"ts\":%llu.%03llu,",
			 (unsigned long long)recs[i].ts_ns / 1000,
			 (unsigned long long)recs[i].ts_ns % 1000);
		p = strstr(p, want);
		if (!p)
			break;
		found++;
	}
	CHECK(found == n, "Perfetto ts: each hold's ts_ns exactly, absolute, in order "
	      "(%zu of %zu; the %zuth wanted %s)", found, n, found + 1, found < n ? want : "-");
	CHECK(!strcmp(jq("[.traceEvents[] | select(.ph == \"X\") | .ts] | length"), "6"),
	      "Perfetto ts: six slices: %s", out);
}

/*
 * The stack of each slice: args.stack innermost first (what Perfetto
 * shows), and sf leading through stackFrames' parents to the same names
 * (what chrome://tracing shows); none for a hold whose stack was not
 * taken; each frame of the table written once.
 */
static void perfetto_stacks(void)
{
	CHECK(!strcmp(jq("[.traceEvents[] | select(.ph == \"X\" and .tid == 202) | .args.stack | join(\" \")] | .[]"),
		      "follow_page_pte+0x0 __get_user_pages+0x1b4 process_vm_rw_core+0x2c0"),
	      "Perfetto args.stack: innermost first, the root last: '%s'", out);
	CHECK(!strcmp(jq(". as $d | [.traceEvents[] | select(.ph == \"X\" and .sf != null) | . as $e | "
			 "[$e.sf | recurse($d.stackFrames[.].parent // empty) | $d.stackFrames[.].name] == $e.args.stack] | "
			 "\"\\(length) \\(all)\""), "5 true"),
	      "Perfetto sf: 5 slices, each leads through stackFrames' parents to its args.stack: '%s'", out);
	CHECK(!strcmp(jq("[.traceEvents[] | select(.ph == \"X\" and .sf == null and .args.stack == null) | .args.addr] | "
			 "join(\" \")"), "0x7f0000004000"),
	      "Perfetto: the hold without a stack has neither sf nor args.stack: '%s'", out);
	CHECK(!strcmp(jq("[.stackFrames | keys[]] | join(\" \")"), "3:0 3:1 3:2 3:3 7:0 7:1 7:2"),
	      "Perfetto stackFrames: each frame of the 2 stacks once: '%s'", out);
}

static void perfetto(const struct trace_rec *recs, size_t n)
{
	char *txt = scratch("report.txt");
	char *argv[] = { "report", "-n", "0", "--perfetto", json, "--plot", svg, trace, NULL };
	int rc;

	rc = run_report(8, argv, txt);
	CHECK(rc == 0, "report with exports exits 0 ('%s')", out);
	jq("[.traceEvents[] | select(.ph == \"X\")] | \"\\(length) \\(.[1].dur) \\(.[1].args.pages) \\(.[1].tid)\"");
	CHECK(!strcmp(out, "6 0.9 1 201"), "Perfetto JSON: 6 slices, 2nd for 0.9 us on tid 201: '%s'", out);
	jq("[.traceEvents[] | select(.ph == \"M\" and .name == \"thread_name\")] | length");
	CHECK(!strcmp(out, "5"), "each of the 5 threads named once: '%s'", out);
	jq("[.metadata.clock, .metadata.start_ns, .metadata.holds] | join(\" \")");
	CHECK(!strcmp(out, "CLOCK_MONOTONIC 1000000000 6"), "Perfetto metadata: the clock, the start, the holds: '%s'",
	      out);
	perfetto_times(recs, n);
	perfetto_stacks();
	slurp(svg);
	CHECK(strstr(out, "<svg xmlns=\"http://www.w3.org/2000/svg\"") && strstr(out, "</svg>"),
	      "an SVG document");
	CHECK(strstr(out, "<title>1 holds</title>") && strstr(out, "PTE-lock hold time"),
	      "bars and a title");
	CHECK(strstr(out, "hold time (log2 buckets") && strstr(out, "holds (log scale)"), "axis labels");
	CHECK(!strstr(out, "<script") && !strstr(out, "href"), "self-contained: no script, no link");
}

/* jq's answer to @filter over @file, first line, in out. */
static const char *jq_of(const char *file, const char *filter)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "jq -r '%s' %s 2>&1", filter, file);
	return first_line(cmd);
}

/*
 * A --waits trace: 4 holds, two waited on, and 3 waits, one of them on
 * a hold the file lacks; one written before the hold it names.
 */
static void waits(void)
{
	char *wt = scratch("w.gt"), *txt = scratch("w.txt"), *wj = scratch("w.json");
	char *pj = scratch("wp.json");
	char *argv[] = { "report", "-n", "2", wt, NULL };
	char *jargv[] = { "report", "-j", "-n", "3", wt, NULL };
	char *pargv[] = { "report", "-n", "0", "--perfetto", pj, wt, NULL };
	struct trace_rec r[7];
	size_t i;

	for (i = 0; i < 4; i++)
		r[i] = synth_rec(i, 1000 + 100 * i);
	r[4] = r[3];
	r[3] = synth_wait_on(0, &r[4], 40, 9000);	/* before its hold */
	r[5] = synth_wait_on(1, &r[1], 300, 250);
	r[5].stack = GT_NO_STACK;
	r[6] = synth_wait(2, &r[0], 10, 70000);
	/* A hold the file lacks (lost): of a thread with no record. */
	r[6].holder_tid = 999;
	synth_write(wt, r, 7, GT_F_WAITS);

	CHECK(run_report(4, argv, txt) == 0 && !out[0], "report of a --waits trace exits 0 ('%s')", out);
	slurp(txt);
	CHECK(strstr(out, "  holds 4, waits 3, lost 0 (holds or waits), stacks not taken 0\n"),
	      "the source line counts holds and waits apart");
	CHECK(strstr(out, "hold: count 4, min 1000, p50 1100, p90 1300, p99 1300, max 1300 ns"),
	      "the hold figures are the holds' alone");
	CHECK(strstr(out, "     wait: count 3, min 250, p50 9000, p90 70000, p99 70000, max 70000 ns (70.0 us)") &&
	      strstr(out, "     total wait time 79250 ns (0.079 ms) in 3 waits, on 2 of the holds\n"),
	      "the waits' summary: count, total, p50/p99/max, the holds waited on");
	CHECK(strstr(out, "The 2 longest waits (time from the start of the trace), each with the hold it waited on:\n"
		      " #1   wait 70000 ns at +0.000001010 s, cpu 1, pid 302 tid 302 (faulter), cgroup /system.slice/gupwork.service\n"
		      "      waiter's stack:\n"
		      "         queued_spin_lock_slowpath+0x4e\n"
		      "         do_pte_missing+0x3d\n"
		      "         handle_mm_fault+0x1b2\n"
		      "      on the hold of pid 100 tid 999 at +0.000001000 s: not in the trace"),
	      "the longest wait first, its waiter and stack, its hold missing said so");
	CHECK(strstr(out, " #2   wait 9000 ns at +0.000016040 s, cpu 1, pid 300 tid 300 (faulter), cgroup /system.slice/gupwork.service\n"
		      "      waiter's stack:\n"
		      "         queued_spin_lock_slowpath+0x4e\n"
		      "         do_pte_missing+0x3d\n"
		      "         handle_mm_fault+0x1b2\n"
		      "      on the hold of pid 101 tid 200 (gup_test) at +0.000016000 s: hold 1300 ns, 1 pages, cpu 1\n"
		      "      holder's stack:\n"
		      "         follow_page_pte+0x0\n"
		      "         __get_user_pages+0x1b4\n"
		      "         process_vm_rw_core+0x2c0\n"),
	      "the second with the hold it waited on, written after it, and the holder's stack");

	CHECK(run_report(5, jargv, wj) == 0, "report -j of it exits 0 ('%s')", out);
	CHECK(!strcmp(jq_of(wj, "[.trace.waits_traced, .waits.waits, .waits.total_ns, .waits.waited_holds, "
			    ".waits.p50_ns, .waits.p99_ns, .waits.max_ns] | map(tostring) | join(\" \")"),
		      "true 3 79250 2 9000 70000 70000"),
	      "-j: the waits' summary: '%s'", out);
	CHECK(!strcmp(jq_of(wj, "[.waits.longest[] | \"\\(.rank):\\(.wait_ns):\\(.pid):\\(.holder_tid):"
			    "\\(.hold.hold_ns // \"-\"):\\(.stack // [] | length):\\(.hold.stack // [] | length)\"] | join(\" \")"),
		      "1:70000:302:999:-:3:0 2:9000:300:200:1300:3:3 3:250:301:201:1100:0:3"),
	      "-j: the longest waits, each with its waiter, its hold and both stacks: '%s'", out);
	CHECK(!strcmp(jq_of(wj, "[.longest[] | .waited] | map(tostring) | join(\" \")"),
		      "true false true"), "-j: the holds waited on say so: '%s'", out);

	CHECK(run_report(6, pargv, txt) == 0, "--perfetto of it exits 0 ('%s')", out);
	CHECK(!strcmp(jq_of(pj, "[.traceEvents[] | select(.ph == \"X\") | .name] | group_by(.) | "
			    "map(\"\\(.[0]):\\(length)\") | join(\" \")"), "PTE-lock hold:4 PTE-lock wait:3"),
	      "Perfetto: a slice per hold and per wait: '%s'", out);
	CHECK(!strcmp(jq_of(pj, "[.traceEvents[] | select(.ph == \"X\" and .name == \"PTE-lock wait\") | "
			    "\"\\(.tid):\\(.dur)\"] | join(\" \")"), "300:9 301:0.25 302:70"),
	      "Perfetto: each wait on its waiter's thread, for its time: '%s'", out);
	/* Each flow: "s" inside the hold's slice on the holder's thread, "f" at the wait. */
	CHECK(!strcmp(jq_of(pj, ". as $d | [.traceEvents[] | select(.ph == \"s\") | . as $s | "
			    "($d.traceEvents[] | select(.ph == \"f\" and .id == $s.id)) as $f | "
			    "($d.traceEvents[] | select(.ph == \"X\" and .tid == $f.tid and .ts == $f.ts)) as $w | "
			    "[$d.traceEvents[] | select(.ph == \"X\" and .name == \"PTE-lock hold\" and .tid == $s.tid and "
			    ".ts <= $s.ts and $s.ts <= .ts + .dur)] as $h | "
			    "\"\\($s.id):\\($s.tid)>\\($f.tid):\\($f.bp):\\($w.name):\\($h | length)\"] | join(\" \")"),
		      "1:200>300:e:PTE-lock wait:1 2:201>301:e:PTE-lock wait:1 3:999>302:e:PTE-lock wait:0"),
	      "Perfetto flows: one per wait, from inside the hold's slice (none for the missing hold) to the wait's: '%s'",
	      out);
	CHECK(!strcmp(jq_of(pj, ".metadata.waits"), "3"), "Perfetto metadata: the waits: '%s'", out);
}

/* The trace with another clock id in its header. */
static void set_clock(const char *path, __u32 clock_id)
{
	__le32 v = htole32(clock_id);
	int fd = open(path, O_WRONLY);

	if (fd < 0 || pwrite(fd, &v, sizeof(v), offsetof(struct gt_header, clock_id)) != sizeof(v))
		CHECK(0, "cannot patch the clock of %s", path);
	if (fd >= 0)
		close(fd);
}

/*
 * CLOCK_BOOTTIME is read and named in the text and the export; a clock
 * id gupstat does not know is refused, one line, exit 1, no export.
 */
static void clocks(void)
{
	char *txt = scratch("report.txt"), *other = scratch("clock.gt"), cmd[3 * PATH_MAX];
	char *argv[] = { "report", "-n", "0", "--perfetto", json, other, NULL };

	snprintf(cmd, sizeof(cmd), "cp %s %s && rm -f %s", trace, other, json);
	if (system(cmd))
		CHECK(0, "cannot copy the trace");
	set_clock(other, CLOCK_BOOTTIME);
	CHECK(run_report(6, argv, txt) == 0 && !out[0], "CLOCK_BOOTTIME: read ('%s')", out);
	CHECK(strstr(slurp(txt), "  clock: CLOCK_BOOTTIME (the kernel's bpf_ktime_get_boot_ns()), start 1.000000000 s\n"),
	      "CLOCK_BOOTTIME: the text names it");
	CHECK(!strcmp(jq(".metadata.clock"), "CLOCK_BOOTTIME"), "CLOCK_BOOTTIME: the export names it: '%s'", out);
	unlink(json);
	set_clock(other, 4);	/* CLOCK_MONOTONIC_RAW: no tracer writes it */
	CHECK(run_report(6, argv, txt) == 1 && err_one_line && strstr(out, "clock.gt: timestamps on clock id 4, "),
	      "clock id 4: exit 1, one line: '%s'", out);
	CHECK(!slurp(txt)[0] && access(json, F_OK) && errno == ENOENT, "clock id 4: nothing printed, no export");
}

static void bad_input(void)
{
	char *txt = scratch("report.txt"), *bad = scratch("bad.gt");
	char *missing[] = { "report", NULL };
	char *unknown[] = { "report", "--frobnicate", trace, NULL };
	char *nofile[] = { "report", "/nonexistent/trace", NULL };
	char *corrupt[] = { "report", bad, NULL };
	char *notop[] = { "report", "-n", "x", trace, NULL };
	char *noout[] = { "report", "--plot", "/nonexistent/dir/p.svg", trace, NULL };
	FILE *f;

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

	trace = scratch("t.gt");
	json = scratch("t.json");
	svg = scratch("t.svg");
	err_log = scratch("err");
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
	/* Nanoseconds that a double in microseconds would round away. */
	recs[3].ts_ns = (1ULL << 53) + 1;
	recs[4].stack = GT_NO_STACK;
	synth_write(trace, recs, 6, GT_F_FILL_PROBED);
	text();
	perfetto(recs, 6);
	waits();
	clocks();
	bad_input();
	return check_done();
}
