// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat report --folded on made-up traces: the lines add up to the
 * report's total hold time (and, by holds, to its hold count), frames
 * root first, holds without a stack on one line, heaviest first; by
 * waits, the waiters' stacks add up to the total wait time and the
 * holds' lines stay as they were; frames by function unless
 * --folded-by address; a
 * trace without stacks, an output onto the input and bad options get
 * one line, a non-zero exit and nothing written.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "tap.h"
#include "scratch.h"
#include "synth.h"
#include "capture.h"
#include "report/report.h"
#include "util/msg.h"

#define NR_RECS		40
/* By function, the default: offsets dropped, a module's name kept. */
#define STACK_A_ROOT_FIRST "gup_test_ioctl [gup_test];__gup_longterm_locked;" \
			   "__get_user_pages;follow_page_pte"
#define STACK_B_ROOT_FIRST "process_vm_rw_core;__get_user_pages;follow_page_pte"
/* --folded-by address: the frames as the file has them. */
#define STACK_A_BY_ADDRESS "gup_test_ioctl+0x2a1 [gup_test];__gup_longterm_locked+0x5e;" \
			   "__get_user_pages+0x1b4;follow_page_pte+0x0"

static char *trace, *folded, *txt, *err_log;
static char out[1 << 16], err[4096];
static struct trace_rec recs[NR_RECS];
static bool err_one;	/* stderr was exactly one line */

/* What the made-up holds add up to, per line, by the test's own count. */
struct want {
	__u64 ns, holds;
};
static struct want want_a, want_b, want_none, want_all;

struct folded_file {
	size_t lines;
	__u64 sum;
	bool well_formed;	/* every line "FRAMES N" */
	bool ordered;		/* weights never grow */
	char first[1024];	/* the heaviest line */
};

static bool one_line(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl && !nl[1];
}

/* cmd_report, its stdout in txt; stderr in err, without its newline. */
static int run_report(char **argv)
{
	int argc = 0, rc;

	while (argv[argc])
		argc++;
	rc = capture_run(cmd_report, argc, argv, txt, err_log);
	capture_read(err_log, err, sizeof(err));
	err_one = one_line(err);
	err[strcspn(err, "\n")] = '\0';
	return rc;
}

/* @text's weight for the line of @frames, or -1 if it has none. */
static long long weight_of(const char *text, const char *frames)
{
	size_t n = strlen(frames);
	const char *p = text;

	for (; (p = strstr(p, frames)); p += n)
		if ((p == text || p[-1] == '\n') && p[n] == ' ')
			return atoll(p + n + 1);
	return -1;
}

static void fold_parse(const char *text, struct folded_file *ff)
{
	unsigned long long prev = ~0ULL;
	const char *line = text;

	memset(ff, 0, sizeof(*ff));
	ff->well_formed = ff->ordered = true;
	while (*line) {
		const char *nl = strchr(line, '\n'), *sp;
		char buf[1024];
		unsigned long long w;
		char *end;

		if (!nl || (size_t)(nl - line) >= sizeof(buf)) {
			ff->well_formed = false;
			return;
		}
		memcpy(buf, line, nl - line);
		buf[nl - line] = '\0';
		sp = strrchr(buf, ' ');
		w = sp ? strtoull(sp + 1, &end, 10) : 0;
		if (!sp || sp == buf || !sp[1] || *end)
			ff->well_formed = false;
		if (w > prev)
			ff->ordered = false;
		if (!ff->lines)
			snprintf(ff->first, sizeof(ff->first), "%s", buf);
		prev = w;
		ff->sum += w;
		ff->lines++;
		line = nl + 1;
	}
}

/* "total hold time N ns (... ms) in N holds" of the text report. */
static bool text_totals(const char *text, unsigned long long *ns, unsigned long long *holds)
{
	const char *p = strstr(text, "total hold time ");

	return p && sscanf(p, "total hold time %llu ns (%*f ms) in %llu holds", ns, holds) == 2;
}

static void by_ns(void)
{
	char *argv[] = { "report", "-n", "0", "--folded", folded, trace, NULL };
	unsigned long long ns = 0, holds = 0;
	struct folded_file ff;
	char text[1 << 16];
	int rc = run_report(argv);

	CHECK(rc == 0 && !err[0], "report --folded exits 0, nothing on stderr (%d, '%s')", rc, err);
	capture_read(txt, text, sizeof(text));
	CHECK(text_totals(text, &ns, &holds) && ns == want_all.ns && holds == NR_RECS,
	      "the text prints the total hold time: %llu ns in %llu holds (want %llu in %d)",
	      ns, holds, (unsigned long long)want_all.ns, NR_RECS);
	capture_read(folded, out, sizeof(out));
	fold_parse(out, &ff);
	CHECK(ff.well_formed && ff.lines == 3, "three lines of 'FRAMES N' (%zu)", ff.lines);
	CHECK(ff.sum == ns && ns == want_all.ns, "the lines add up to the report's total: %llu = %llu ns",
	      (unsigned long long)ff.sum, ns);
	CHECK(weight_of(out, STACK_A_ROOT_FIRST) == (long long)want_a.ns,
	      "stack A root first, gup_test_ioctl to follow_page_pte, %llu ns",
	      (unsigned long long)want_a.ns);
	CHECK(weight_of(out, STACK_B_ROOT_FIRST) == (long long)want_b.ns,
	      "stack B root first, %llu ns", (unsigned long long)want_b.ns);
	CHECK(weight_of(out, "[no stack]") == (long long)want_none.ns,
	      "holds without a stack on '[no stack] %llu'",
	      (unsigned long long)want_none.ns);
	CHECK(ff.ordered && !strncmp(ff.first, want_a.ns > want_b.ns ? STACK_A_ROOT_FIRST :
				     STACK_B_ROOT_FIRST, 20), "heaviest first ('%.40s...')", ff.first);
}

static void by_holds(void)
{
	char *argv[] = { "report", "--folded-weight", "holds", "--folded", "-", trace, NULL };
	struct folded_file ff;
	int rc = run_report(argv);

	capture_read(txt, out, sizeof(out));
	CHECK(rc == 0 && !err[0], "--folded - --folded-weight holds exits 0 (%d, '%s')", rc, err);
	CHECK(out[0] && !strstr(out, "Trace ") && !strstr(out, "PTE-lock hold"),
	      "--folded -: stdout has the folded lines alone, no text");
	fold_parse(out, &ff);
	CHECK(ff.well_formed && ff.sum == NR_RECS, "by holds, the lines add up to the hold count: %llu",
	      (unsigned long long)ff.sum);
	CHECK(weight_of(out, STACK_A_ROOT_FIRST) == (long long)want_a.holds &&
	      weight_of(out, "[no stack]") == (long long)want_none.holds,
	      "stack A %llu holds, [no stack] %llu", (unsigned long long)want_a.holds,
	      (unsigned long long)want_none.holds);
}

/* --folded-by address keeps each offset a frame of its own. */
static void by_address(void)
{
	char *argv[] = { "report", "--folded-by", "address", "--folded", "-", trace, NULL };
	char *bad[] = { "report", "--folded-by", "line", "--folded", "-", trace, NULL };
	int rc = run_report(argv);

	capture_read(txt, out, sizeof(out));
	CHECK(rc == 0 && weight_of(out, STACK_A_BY_ADDRESS) == (long long)want_a.ns,
	      "--folded-by address: stack A with its offsets, %llu ns (%d, '%s')",
	      (unsigned long long)want_a.ns, rc, err);
	rc = run_report(bad);
	CHECK(rc == 2 && err_one && strstr(err, "--folded-by") && strstr(err, "line"),
	      "--folded-by line: exit 2, '%s'", err);
}

/*
 * --folded-weight waits: the waiters' stacks by the time they spun, the
 * lines adding up to the text's total wait time; the same trace by ns
 * still has only the holds; a trace without --waits refused.
 */
static void by_waits(void)
{
	static const char *const spin = "handle_mm_fault;do_pte_missing;queued_spin_lock_slowpath";
	char *waits = scratch("w.gt");
	char *argv[] = { "report", "--folded-weight", "waits", "--folded", folded, waits, NULL };
	char *ns_argv[] = { "report", "--folded", "-", waits, NULL };
	char *no_argv[] = { "report", "--folded-weight", "waits", "--folded", folded, trace, NULL };
	struct trace_rec r[6];
	unsigned long long total = 0, n = 0;
	struct folded_file ff;
	char text[1 << 16];
	const char *p;
	size_t i;

	for (i = 0; i < 3; i++)
		r[i] = synth_rec(i, 1000 + i);
	r[3] = synth_wait_on(0, &r[1], 10, 5000);
	r[4] = synth_wait_on(1, &r[1], 20, 700);
	r[5] = synth_wait_on(2, &r[1], 30, 33);
	r[5].stack = GT_NO_STACK;
	synth_write(waits, r, 6, GT_F_WAITS);
	unlink(folded);
	CHECK(run_report(argv) == 0 && !err[0], "--folded-weight waits exits 0 ('%s')", err);
	capture_read(txt, text, sizeof(text));
	p = strstr(text, "total wait time ");
	CHECK(p && sscanf(p, "total wait time %llu ns (%*f ms) in %llu waits", &total, &n) == 2 &&
	      total == 5733 && n == 3, "the text's total wait time: %llu ns in %llu waits", total, n);
	capture_read(folded, out, sizeof(out));
	fold_parse(out, &ff);
	CHECK(ff.well_formed && ff.lines == 2 && ff.sum == total && ff.ordered,
	      "two lines adding up to it, heaviest first (%zu lines, %llu)", ff.lines,
	      (unsigned long long)ff.sum);
	CHECK(weight_of(out, spin) == 5700 && weight_of(out, "[no stack]") == 33,
	      "the waiter's stack, root first, 5700 ns; the wait without one on '[no stack] 33'");
	CHECK(!strstr(out, "follow_page_pte"), "no hold's stack among the waits'");
	CHECK(run_report(ns_argv) == 0, "the same trace by ns");
	capture_read(txt, out, sizeof(out));
	fold_parse(out, &ff);
	CHECK(ff.sum == 3003 && !strstr(out, "queued_spin_lock_slowpath"),
	      "by ns, the holds alone: %llu ns", (unsigned long long)ff.sum);
	unlink(folded);
	CHECK(run_report(no_argv) == 1 && err_one && strstr(err, "traced without --waits") &&
	      access(folded, F_OK), "by waits, a trace without --waits refused, nothing written: '%s'",
	      err);
}

/* The made-up trace's header, as `gupstat trace --no-stacks` writes it. */
static void write_no_stacks(const char *path)
{
	struct trace_kv kv[sizeof(synth_strings) / sizeof(synth_strings[0]) + 1];
	struct trace_end e = { .end_ns = SYNTH_START_NS + 2000000000ULL };
	struct trace_writer w;
	size_t i, n = sizeof(synth_strings) / sizeof(synth_strings[0]);
	FILE *f;

	memcpy(kv, synth_strings, sizeof(synth_strings));
	kv[n] = (struct trace_kv){ "stacks", "not taken (--no-stacks)" };
	f = synth_begin_with(path, &w, 0, kv, n + 1);
	for (i = 0; f && i < 4; i++) {
		struct trace_rec r = synth_rec(i, 1000);

		r.stack = GT_NO_STACK;
		trace_writer_record(&w, &r);
	}
	if (f) {
		trace_writer_finish(&w, &e);
		fclose(f);
	}
}

static void refusals(void)
{
	char *nostk = scratch("nostacks.gt"), *link_name = scratch("same.gt");
	char *nostacks[] = { "report", "--folded", folded, nostk, NULL };
	char *onto[] = { "report", "--folded", trace, trace, NULL };
	char *linked[] = { "report", "--folded", link_name, trace, NULL };
	char *shared[] = { "report", "--plot", folded, "--folded", folded, trace, NULL };
	char *weight[] = { "report", "--folded", folded, "--folded-weight", "bytes", trace, NULL };
	struct stat before, after;
	int rc;

	write_no_stacks(nostk);
	unlink(folded);
	rc = run_report(nostacks);
	CHECK(rc == 1 && err_one && strstr(err, "no stacks (written with --no-stacks)") &&
	      access(folded, F_OK), "a --no-stacks trace: exit 1, nothing written, '%s'", err);
	capture_read(txt, out, sizeof(out));
	CHECK(!out[0], "... and no text report either");

	stat(trace, &before);
	rc = run_report(onto);
	stat(trace, &after);
	CHECK(rc == 1 && err_one && strstr(err, "it is also the input") &&
	      after.st_size == before.st_size && after.st_mtime == before.st_mtime,
	      "--folded onto the input: exit 1, the trace untouched, '%s'", err);
	CHECK(!link(trace, link_name), "a second name for the trace (hard link)");
	rc = run_report(linked);
	stat(trace, &after);
	CHECK(rc == 1 && err_one && strstr(err, "it is also the input") &&
	      after.st_size == before.st_size, "... under another name too: exit 1, '%s'", err);

	rc = run_report(shared);
	CHECK(rc == 2 && err_one && strstr(err, "--folded"),
	      "one name for --plot and --folded: exit 2, '%s'", err);
	rc = run_report(weight);
	CHECK(rc == 2 && err_one && strstr(err, "--folded-weight") && strstr(err, "bytes"),
	      "--folded-weight bytes: exit 2, '%s'", err);
}

/* A trace killed before its trailer has no stack table to fold. */
static void incomplete(void)
{
	char *cut = scratch("cut.gt"), cmd[3 * PATH_MAX];
	char *argv[] = { "report", "--folded", folded, cut, NULL };
	int rc;

	snprintf(cmd, sizeof(cmd), "head -c $(( $(stat -c %%s %s) - %zu )) %s >%s", trace,
		 sizeof(struct gt_trailer) + 300, trace, cut);
	unlink(folded);
	rc = system(cmd) ? -1 : run_report(argv);
	CHECK(rc == 1 && err_one && strstr(err, "no trailer") && access(folded, F_OK),
	      "an incomplete trace: exit 1, nothing written, '%s'", err);
}

static void make_trace(void)
{
	struct want *w;
	size_t i;

	for (i = 0; i < NR_RECS; i++) {
		recs[i] = synth_rec(i, 1000 + 37 * i + (i % 2 ? 0 : 400));
		if (i % 5 == 0)
			recs[i].stack = GT_NO_STACK;
		w = recs[i].stack == SYNTH_STACK_A ? &want_a :
		    recs[i].stack == SYNTH_STACK_B ? &want_b : &want_none;
		w->ns += recs[i].hold_ns;
		w->holds++;
		want_all.ns += recs[i].hold_ns;
	}
	synth_write(trace, recs, NR_RECS, 0);
}

int main(void)
{
	msg_set_cmd("report");
	trace = scratch("t.gt");
	folded = scratch("t.folded");
	txt = scratch("report.txt");
	err_log = scratch("err");
	make_trace();
	by_ns();
	by_holds();
	by_address();
	by_waits();
	refusals();
	incomplete();
	return check_done();
}
