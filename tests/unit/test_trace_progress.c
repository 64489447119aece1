// SPDX-License-Identifier: GPL-2.0
/*
 * trace/progress: the status line's figures from a snapshot, and what
 * reaches stderr: on a terminal (a pseudo-terminal here) the line
 * rewritten in place and erased before any message; elsewhere only the
 * first loss's warning, once; with -q nothing at all.
 */
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include "tap.h"
#include "trace/progress.h"
#include "util/msg.h"

#define EL	"\r\033[K"

static char line[256];

static const char *fmt(const struct trace_progress *p)
{
	trace_progress_format(line, sizeof(line), p);
	return line;
}

static void check_format(void)
{
	struct trace_progress p = {
		.elapsed_ns = 12049000000ULL, .holds = 65536, .bytes = 6295552,
		.lost_known = true, .queued = 20971, .queue_cap = 645277,
	};

	CHECK(!strcmp(fmt(&p), "12.0 s  65536 holds  6.3 MB written  0 lost  queue 3%"),
	      "a 256 MB pin's figures: '%s'", line);
	p.lost = 7;
	p.lost_known = false;
	CHECK(strstr(fmt(&p), "  ? lost  "), "a counter that cannot be read is '?', not 0: '%s'", line);
	p = (struct trace_progress){ .lost_known = true };
	CHECK(!strcmp(fmt(&p), "0.0 s  0 holds  0.0 MB written  0 lost  queue 0%"),
	      "nothing yet, and no queue: 0%%: '%s'", line);
	p = (struct trace_progress){ .queued = 10, .queue_cap = 10, .lost_known = true };
	CHECK(strstr(fmt(&p), "queue 100%"), "a full queue is 100%%: '%s'", line);
	p.queued = 9;
	CHECK(strstr(fmt(&p), "queue 90%"), "9 of 10 is 90%%: '%s'", line);
	p = (struct trace_progress){ .elapsed_ns = ~0ULL, .holds = ~0ULL, .bytes = ~0ULL,
				     .lost = ~0ULL, .lost_known = true, .queued = ~0UL,
				     .queue_cap = ~0UL };
	CHECK(trace_progress_format(line, sizeof(line), &p) < 120,
	      "every field at its widest, under 120 characters: %zu", strlen(line));
	p = (struct trace_progress){ .disk_behind = false };
	CHECK(!strcmp(trace_progress_lost_why(&p), "the ring buffer is full (raise -b)"),
	      "a loss with the disk keeping up blames the ring buffer");
	p.disk_behind = true;
	CHECK(strstr(trace_progress_lost_why(&p), "raise --spool"),
	      "a loss after the reader waited for the disk blames the disk");
}

/* stderr onto @fd for the length of one run; what was written, read back. */
static int saved_err = -1;

static void err_to(int fd)
{
	fflush(stderr);
	saved_err = dup(STDERR_FILENO);
	dup2(fd, STDERR_FILENO);
}

static void err_back(void)
{
	fflush(stderr);
	dup2(saved_err, STDERR_FILENO);
	close(saved_err);
}

static size_t drain(int fd, char *buf, size_t size)
{
	ssize_t n;
	size_t len = 0;

	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	buf[len] = 0;
	return len;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* Two ticks, a loss on the second and third, a message, the end. */
static void run_ticks(bool quiet)
{
	struct trace_progress p = { .elapsed_ns = 1000000000ULL, .holds = 100,
				    .bytes = 10400, .lost_known = true, .queue_cap = 100 };
	struct trace_progress_out o;

	trace_progress_open(&o, quiet);
	trace_progress_show(&o, &p);
	p.elapsed_ns *= 2;
	p.lost = 5;
	trace_progress_show(&o, &p);
	p.elapsed_ns += 1000000000ULL;
	p.lost = 9;
	trace_progress_show(&o, &p);
	p_err("a message\n");
	trace_progress_show(&o, &p);
	trace_progress_close(&o);
	fprintf(stderr, "the end\n");
}

#define WARN	"gupstat trace: WARNING: holds are being lost: the ring buffer is full (raise -b)\n"

#define FIRST	EL "gupstat trace: 1.0 s  100 holds  0.0 MB written  0 lost  queue 0%" EL WARN

static void check_terminal(void)
{
	static char out[8192];
	struct termios raw;
	int master, slave;

	if (openpty(&master, &slave, NULL, NULL, NULL)) {
		CHECK(0, "openpty");
		return;
	}
	/* Bytes as written: no "\n" to "\r\n" on the way. */
	tcgetattr(slave, &raw);
	cfmakeraw(&raw);
	tcsetattr(slave, TCSANOW, &raw);
	fcntl(master, F_SETFL, O_NONBLOCK);
	err_to(slave);
	run_ticks(false);
	err_back();
	drain(master, out, sizeof(out));
	CHECK(!strncmp(out, FIRST, strlen(FIRST)),
	      "the line, then erased before the warning on a line of its own");
	CHECK(count(out, "WARNING") == 1, "the first loss warned of once, not at each tick");
	CHECK(strstr(out, "2.0 s  100 holds  0.0 MB written  5 lost") &&
	      strstr(out, "3.0 s  100 holds  0.0 MB written  9 lost"),
	      "the line rewritten with each tick's figures");
	CHECK(strstr(out, "9 lost  queue 0%" EL "gupstat trace: a message\n" EL "gupstat trace: 3.0 s"),
	      "a message erases the line first and the line comes back after it");
	CHECK(strstr(out, "queue 0%" EL "the end\n") && count(out, "\n") == 3,
	      "the end erases it: what follows starts a line; newlines only after messages");
	close(master);
	close(slave);
}

static void check_file(bool quiet)
{
	static char out[8192];
	FILE *f = tmpfile();

	err_to(fileno(f));
	run_ticks(quiet);
	err_back();
	rewind(f);
	out[fread(out, 1, sizeof(out) - 1, f)] = 0;
	fclose(f);
	if (quiet)
		CHECK(!strcmp(out, "gupstat trace: a message\nthe end\n"),
		      "-q: no status line and no warning until the end: '%s'", out);
	else
		CHECK(!strcmp(out, WARN "gupstat trace: a message\nthe end\n"),
		      "not a terminal: the warning once, no status line, no escape: '%s'", out);
}

int main(void)
{
	msg_set_cmd("trace");
	check_format();
	check_terminal();
	check_file(false);
	check_file(true);
	return check_done();
}
