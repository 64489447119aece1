// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat trace's progress (progress.h): a status line rewritten in
 * place once a second on a terminal, the way a user sees whether holds
 * are being written or lost before the end, and a warning line the
 * first time one is lost. Both go to stderr, as every message does.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "trace/progress.h"
#include "util/msg.h"

/* The longest line: every field at its widest is under 120 characters. */
#define PROGRESS_MAX	160

/* stderr is the process's: whether a status line is on it now is too. */
static bool line_shown;

int trace_progress_format(char *buf, size_t size, const struct trace_progress *p)
{
	char lost[24] = "?";
	unsigned int pct = 0;

	if (p->lost_known)
		snprintf(lost, sizeof(lost), "%llu", (unsigned long long)p->lost);
	/* In double: a queue of 2^60 records times 100 would wrap. */
	if (p->queue_cap)
		pct = (unsigned int)((double)p->queued * 100 / p->queue_cap);
	return snprintf(buf, size, "%.1f s  %llu holds  %.1f MB written  %s lost  queue %u%%",
			p->elapsed_ns / 1e9, (unsigned long long)p->holds, p->bytes / 1e6,
			lost, pct);
}

/* As the end of the run says it (trace.c's report_end()), in the present. */
const char *trace_progress_lost_why(const struct trace_progress *p)
{
	if (p->disk_behind)
		return "the disk is behind by the whole spool and the ring buffer is full "
		       "(raise --spool, or write to a faster disk)";
	return "the ring buffer is full (raise -b)";
}

/* Back to the line's start, and the line erased (ECMA-48 EL). */
static void clear_line(void)
{
	if (!line_shown)
		return;
	fputs("\r\033[K", stderr);
	line_shown = false;
}

void trace_progress_open(struct trace_progress_out *o, bool quiet)
{
	memset(o, 0, sizeof(*o));
	o->quiet = quiet;
	o->line = !quiet && isatty(STDERR_FILENO);
	if (o->line)
		msg_set_clear(clear_line);
}

/* A line wider than the terminal would wrap, and "\r" not reach its start. */
static void cut_to_width(char *line)
{
	struct winsize ws;

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 1 &&
	    strlen(line) >= ws.ws_col)
		line[ws.ws_col - 1] = 0;
}

static void show_line(const struct trace_progress *p)
{
	char line[PROGRESS_MAX];
	int n = snprintf(line, sizeof(line), "%s: ", msg_cmd());

	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	trace_progress_format(line + n, sizeof(line) - n, p);
	cut_to_width(line);
	fprintf(stderr, "\r\033[K%s", line);
	line_shown = true;
}

void trace_progress_show(struct trace_progress_out *o, const struct trace_progress *p)
{
	if (o->quiet)
		return;
	/* Once: the count at the end says how many in all. */
	if (!o->warned && p->lost_known && p->lost) {
		o->warned = true;
		p_err("WARNING: holds are being lost: %s\n", trace_progress_lost_why(p));
	}
	if (o->line)
		show_line(p);
}

void trace_progress_close(struct trace_progress_out *o)
{
	if (!o->line)
		return;
	clear_line();
	msg_set_clear(NULL);
	o->line = false;
}
