// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat report's text: where the trace came from, the hold-time
 * distribution with percentiles (log2 rows as bcc prints them), pages per
 * hold, how much of the holds the pages fill took, and the longest holds
 * with their kernel stacks, perf-style.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "report/text.h"
#include "tracefile/clock.h"
#include "tracefile/srclines.h"
#include "util/hist.h"
#include "util/input.h"

#define BAR_WIDTH	40

const char *trace_result_name(unsigned int result)
{
	static const char *const names[GT_RESULTS] = {
		"pages", "fault-needed", "-EMLINK", "-EEXIST", "-EFAULT", "-errno",
	};

	return result < GT_RESULTS ? names[result] : "?";
}

/* Append "NAME" for one "NAME=0xVALUE" token if VALUE is a set single bit. */
static void flag_token(char *tok, __u32 *left, char *buf, size_t len, size_t *used)
{
	char *eq = strchr(tok, '='), *end;
	unsigned long v;
	int n;

	if (!eq)
		return;
	*eq = '\0';
	v = strtoul(eq + 1, &end, 0);
	if (*end || !v || (v & (v - 1)) || v > 0xffffffffUL || !(*left & v))
		return;
	n = snprintf(buf + *used, len - *used, "%s%s", *used ? "|" : "", tok);
	if (n > 0 && (size_t)n < len - *used) {
		*used += n;
		*left &= ~v;
	}
}

const char *trace_flags_name(const struct trace_file *tf, __u32 flags,
			     char *buf, size_t len)
{
	const char *names = trace_file_string(tf, "foll_flags");
	char *copy = names ? strdup(names) : NULL, *save = NULL, *tok;
	size_t used = 0;
	__u32 left = flags;

	buf[0] = '\0';
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save))
		flag_token(tok, &left, buf, len, &used);
	free(copy);
	if (left || !flags)
		snprintf(buf + used, len - used, "%s0x%x", used ? "|" : "", left);
	return buf;
}

/*
 * What every time in the file is on, and where the trace starts on it:
 * a hold's absolute time (the Perfetto export's ts) is start plus the
 * offset the longest holds are printed at. The reader knows the clock.
 */
static void print_clock(FILE *f, const struct trace_file *tf)
{
	fprintf(f, "  clock: %s (the kernel's %s), start %llu.%09llu s\n",
		trace_clock_name(tf->clock_id), trace_clock_helper(tf->clock_id),
		(unsigned long long)tf->start_ns / 1000000000,
		(unsigned long long)tf->start_ns % 1000000000);
}

static void print_source(FILE *f, const char *path, const struct trace_file *tf)
{
	const char *cmd = trace_file_string(tf, "command");
	const char *walk = trace_file_string(tf, "walk");
	const char *fill = trace_file_string(tf, "fill");
	const char *stacks = trace_file_string(tf, "stacks");
	double secs = tf->end_ns > tf->start_ns ? (tf->end_ns - tf->start_ns) / 1e9 : 0;

	/* The file's name is text from outside, as what is in it. */
	fprintf(f, "Trace %s: kernel %s, gupstat %s, %.3f s of %s\n", input_safe(path),
		trace_file_string(tf, "kernel"), trace_file_string(tf, "gupstat"),
		secs, cmd ? cmd : "?");
	fprintf(f, "  hold: %s\n", trace_file_string(tf, "method"));
	print_clock(f, tf);
	if (walk)
		fprintf(f, "  walk: %s\n", walk);
	if (fill)
		fprintf(f, "  fill: %s\n", fill);
	if (stacks)
		fprintf(f, "  stacks: %s\n", stacks);
	if (tf->incomplete && (tf->flags & GT_F_WAITS))
		fprintf(f, "  holds %zu and waits %zu recovered: the trace did not end cleanly (no trailer), so "
			"how many were lost or left out is not known, and no stacks were written",
			trace_file_holds(tf), tf->nr_waits);
	else if (tf->incomplete)
		fprintf(f, "  holds %zu recovered: the trace did not end cleanly (no trailer), so "
			"how many were lost or left out is not known, and no stacks were written",
			tf->nr_recs);
	else if (tf->flags & GT_F_WAITS)
		fprintf(f, "  holds %zu, waits %zu, lost %llu (holds or waits), stacks not taken %llu",
			trace_file_holds(tf), tf->nr_waits, (unsigned long long)tf->lost,
			(unsigned long long)tf->stack_errors);
	else
		fprintf(f, "  holds %zu, lost %llu, stacks not taken %llu", tf->nr_recs,
			(unsigned long long)tf->lost, (unsigned long long)tf->stack_errors);
	if (tf->min_ns && !tf->incomplete)
		fprintf(f, ", %llu shorter than --min-ns %llu left out",
			(unsigned long long)tf->below_min, (unsigned long long)tf->min_ns);
	fprintf(f, "\n");
	if (tf->lost && (tf->flags & GT_F_WAITS))
		fprintf(f, "  WARNING: %llu holds or waits were lost (the ring buffer full, or the probe skipped: the tracer said which): every number below misses them\n",
			(unsigned long long)tf->lost);
	else if (tf->lost)
		fprintf(f, "  WARNING: %llu holds were lost (the ring buffer full, or the probe skipped: the tracer said which): every number below misses them\n",
			(unsigned long long)tf->lost);
}

static void print_dist(FILE *f, const char *what, const struct summary_dist *d, size_t n)
{
	fprintf(f, "     %s: count %zu, min %llu, p50 %llu, p90 %llu, p99 %llu, max %llu ns (%.1f us), mean %.1f ns\n",
		what, n, (unsigned long long)d->min, (unsigned long long)d->p50,
		(unsigned long long)d->p90, (unsigned long long)d->p99,
		(unsigned long long)d->max, d->max / 1000.0, d->mean);
}

/* Linear, but only the rows that have holds: 1 and 512 side by side. */
static void print_pages(FILE *f, const struct trace_summary *s)
{
	char bar[BAR_WIDTH + 1];
	__u64 max = 0;
	int i;

	fprintf(f, "\nPages per hold (pages walked in one follow_page_pte() call)\n");
	for (i = 0; i < SUMMARY_PAGE_SLOTS; i++)
		if (s->pages_lin[i] > max)
			max = s->pages_lin[i];
	fprintf(f, "     %-13s : %s\n", "pages", max ? "count    distribution" : "(no holds)");
	for (i = 0; i < SUMMARY_PAGE_SLOTS; i++) {
		if (!s->pages_lin[i])
			continue;
		hist_bar(bar, s->pages_lin[i], max, BAR_WIDTH);
		fprintf(f, "        %s%-*d : %-8llu |%s|\n", i == SUMMARY_PAGE_SLOTS - 1 ? ">= " : "",
			i == SUMMARY_PAGE_SLOTS - 1 ? 7 : 10, i,
			(unsigned long long)s->pages_lin[i], bar);
	}
	fprintf(f, "     total %llu pages walked, %llu stored, max %llu per hold\n",
		(unsigned long long)s->pages, (unsigned long long)s->stored,
		(unsigned long long)s->max_pages);
}

static void print_fill(FILE *f, const struct trace_file *tf, const struct trace_summary *s)
{
	fprintf(f, "\ngup_fill_pages() inside the hold: ");
	if (!(tf->flags & GT_F_FILL_PROBED)) {
		fprintf(f, "not traced (see fill: above)\n");
		return;
	}
	fprintf(f, "%zu of %zu holds", s->with_fill, s->n);
	if (s->with_fill)
		fprintf(f, "; %.1f%% of those holds' time (%llu of %llu ns); per hold p50 %.1f%%, p90 %.1f%%",
			s->fill_hold_ns ? 100.0 * s->fill_ns / s->fill_hold_ns : 0.0,
			(unsigned long long)s->fill_ns, (unsigned long long)s->fill_hold_ns,
			100 * s->fill_share_p50, 100 * s->fill_share_p90);
	fprintf(f, "\n");
	if (s->with_fill)
		print_dist(f, "hold without the fill", &s->bare, s->with_fill);
}

static void print_stack(FILE *f, const struct trace_file *tf, __u32 id)
{
	const struct trace_stack *st = trace_file_stack(tf, id);
	char buf[1024];
	__u32 i;

	if (!st) {
		fprintf(f, "         [no stack]\n");
		return;
	}
	for (i = 0; i < st->nr_frames; i++) {
		const char *label = trace_frame_label(&st->frames[i], buf, sizeof(buf));

		if (tf->flags & GT_F_KERNEL_ADDRS)
			fprintf(f, "         %016llx %s\n",
				(unsigned long long)st->frames[i].addr, label);
		else
			fprintf(f, "         %s\n", label);
	}
}

/* From the trace's start, in s: a record may have started before it. */
static double offset_s(const struct trace_file *tf, __u64 ts_ns)
{
	return (ts_ns >= tf->start_ns ? (double)(ts_ns - tf->start_ns) :
		-(double)(tf->start_ns - ts_ns)) / 1e9;
}

static void print_hold(FILE *f, const struct trace_file *tf, size_t rank,
		       const struct trace_rec *r)
{
	char flags[512], cg[32];
	double rel = offset_s(tf, r->ts_ns);

	fprintf(f, " #%-3zu %llu ns at %+.9f s, cpu %u, pid %u tid %u (%s), cgroup %s\n", rank,
		(unsigned long long)r->hold_ns, rel, r->cpu, r->pid, r->tid, r->comm,
		trace_file_cgroup_name(tf, r->cgroup, cg, sizeof(cg)));
	fprintf(f, "      addr 0x%llx, %u pages, %u stored%s, fill %llu ns in %u calls, %s, %s\n",
		(unsigned long long)r->addr, r->pages, r->stored,
		r->flags & GT_R_STORED_KNOWN ? "" : " (unknown)",
		(unsigned long long)r->fill_ns, r->fills,
		trace_result_name(r->result),
		trace_flags_name(tf, r->gup_flags, flags, sizeof(flags)));
	print_stack(f, tf, r->stack);
}

/*
 * Most holds first, as many rows as -n shows holds (at least 10): a
 * host with thousands of cgroups does not print them all.
 */
static void print_cgroups(FILE *f, const struct trace_file *tf, const struct trace_summary *s)
{
	size_t i, rows = s->nr_top > 10 ? s->nr_top : 10;
	char cg[32];

	if (tf->version == GT_VERSION_V1) {
		fprintf(f, "\nHolds per cgroup: not known (a version %u file has no cgroups)\n",
			tf->version);
		return;
	}
	fprintf(f, "\nHolds per cgroup%s\n", cg_tally_nr(&s->cgroups) ? "" : ": (no holds)");
	for (i = 0; i < cg_tally_nr(&s->cgroups) && i < rows; i++) {
		const struct cg_tally *c = cg_tally_at(&s->cgroups, i);

		fprintf(f, "     %10llu holds %10llu pages %14llu ns  %s\n",
			(unsigned long long)c->holds, (unsigned long long)c->pages,
			(unsigned long long)c->hold_ns,
			trace_file_cgroup_name(tf, c->id, cg, sizeof(cg)));
	}
	if (i < cg_tally_nr(&s->cgroups))
		fprintf(f, "     ... and %zu more cgroups\n", cg_tally_nr(&s->cgroups) - i);
}

/* The waits' summary line: only a trace taken with --waits has any. */
static void print_waits(FILE *f, const struct trace_file *tf, const struct trace_summary *s)
{
	if (!(tf->flags & GT_F_WAITS))
		return;
	fprintf(f, "\nPTE-lock waits (--waits): spins on a PTE lock while a GUP walk held it\n");
	print_dist(f, "wait", &s->wait, s->nr_waits);
	fprintf(f, "     total wait time %llu ns (%.3f ms) in %zu waits, on %zu of the holds\n",
		(unsigned long long)s->wait_total_ns, s->wait_total_ns / 1e6, s->nr_waits,
		s->waited);
}

/*
 * A wait, its waiter's stack (taken when the spin ended), then the
 * hold it waited on and the walk's stack at the hold's end.
 */
static void print_wait(FILE *f, const struct trace_file *tf, size_t rank,
		       const struct trace_wait_top *t)
{
	const struct trace_rec *w = &t->wait, *h = &t->hold;
	char cg[32];

	fprintf(f, " #%-3zu wait %llu ns at %+.9f s, cpu %u, pid %u tid %u (%s), cgroup %s\n",
		rank, (unsigned long long)w->wait_ns, offset_s(tf, w->ts_ns), w->cpu, w->pid,
		w->tid, w->comm, trace_file_cgroup_name(tf, w->cgroup, cg, sizeof(cg)));
	if (tf->flags & GT_F_KERNEL_ADDRS)
		fprintf(f, "      lock %016llx\n", (unsigned long long)w->lock);
	fprintf(f, "      waiter's stack:\n");
	print_stack(f, tf, w->stack);
	if (!t->found) {
		fprintf(f, "      on the hold of pid %u tid %u at %+.9f s: not in the trace (lost, or past the end of an unfinished trace)\n",
			w->holder_pid, w->holder_tid, offset_s(tf, w->hold_ts_ns));
		return;
	}
	fprintf(f, "      on the hold of pid %u tid %u (%s) at %+.9f s: hold %llu ns, %u pages, cpu %u\n",
		h->pid, h->tid, h->comm, offset_s(tf, h->ts_ns), (unsigned long long)h->hold_ns,
		h->pages, h->cpu);
	fprintf(f, "      holder's stack:\n");
	print_stack(f, tf, h->stack);
}

void trace_text_print(FILE *f, const char *path, const struct trace_file *tf,
		      const struct trace_summary *s)
{
	size_t i;

	print_source(f, path, tf);
	fprintf(f, "\nPTE-lock hold per follow_page_pte() call\n");
	print_dist(f, "hold", &s->hold, s->n);
	fprintf(f, "     total hold time %llu ns (%.3f ms) in %zu holds\n",
		(unsigned long long)s->hold_total_ns, s->hold_total_ns / 1e6, s->n);
	hist_print_log2(f, "nsecs", s->hold_log2, SUMMARY_LOG2_SLOTS);
	print_pages(f, s);
	print_fill(f, tf, s);
	print_cgroups(f, tf, s);
	print_waits(f, tf, s);
	if (s->nr_top)
		fprintf(f, "\nThe %zu longest holds (time from the start of the trace):\n", s->nr_top);
	for (i = 0; i < s->nr_top; i++)
		print_hold(f, tf, i + 1, &s->top[i]);
	if (s->nr_top_waits)
		fprintf(f, "\nThe %zu longest waits (time from the start of the trace), each with the hold it waited on:\n",
			s->nr_top_waits);
	for (i = 0; i < s->nr_top_waits; i++)
		print_wait(f, tf, i + 1, &s->top_waits[i]);
}
