// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat report FILE: read a trace file (every part checked, one line
 * and exit 1 for anything wrong with it), print its summary and longest
 * holds, and export a timeline and a plot on request.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report/export.h"
#include "tracefile/reader.h"
#include "report/report.h"
#include "report/stats.h"
#include "report/text.h"

static const char usage[] =
"usage: gupstat report [OPTIONS] FILE\n"
"\n"
"Summarise a trace written by 'gupstat trace -o FILE': hold-time\n"
"percentiles and distribution, pages per hold, how much of the holds the\n"
"pages fill took, and the longest holds with their kernel stacks.\n"
"\n"
"  -n, --top N          show the N longest holds (default 10, 0 for none)\n"
"      --perfetto OUT   write a timeline, trace-event JSON: one slice per hold\n"
"                       (open in ui.perfetto.dev or chrome://tracing)\n"
"      --plot OUT       write the hold-time distribution as an SVG image\n"
"  -h, --help           print this help\n";

enum { OPT_PERFETTO = 256, OPT_PLOT };

static const struct option long_opts[] = {
	{ "top", required_argument, NULL, 'n' },
	{ "perfetto", required_argument, NULL, OPT_PERFETTO },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "help", no_argument, NULL, 'h' },
	{}
};

struct report_opts {
	const char *path;
	const char *perfetto;
	const char *plot;
	unsigned long top;
};

static int parse_top(const char *s, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || errno || *end || *out > 100000) {
		fprintf(stderr, "gupstat report: -n: not a number from 0 to 100000: '%s'\n", s);
		return -EINVAL;
	}
	return 0;
}

/* 0 to run, 1 after help, -EINVAL after printing the error. */
static int parse(struct report_opts *o, int argc, char **argv)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->top = 10;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":n:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_top(optarg, &o->top))
				return -EINVAL;
			break;
		case OPT_PERFETTO: o->perfetto = optarg; break;
		case OPT_PLOT: o->plot = optarg; break;
		case 'h':
			fputs(usage, stdout);
			return 1;
		default:
			fprintf(stderr, c == ':' ?
				"gupstat report: option '%s' needs a value (try 'gupstat report --help')\n" :
				"gupstat report: unknown option '%s' (try 'gupstat report --help')\n",
				argv[optind - 1]);
			return -EINVAL;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "gupstat report: %s (usage: gupstat report [OPTIONS] FILE)\n",
			optind < argc ? "one trace file at a time" : "no trace file given");
		return -EINVAL;
	}
	o->path = argv[optind];
	return 0;
}

/* @path for writing, created with @mode, never through a symlink. */
static FILE *open_out(const char *path, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

typedef int (*export_fn)(FILE *f, const struct trace_file *tf,
			 const struct trace_summary *s);

static int export_to(const char *path, mode_t mode, export_fn fn,
		     const struct trace_file *tf, const struct trace_summary *s)
{
	FILE *f = open_out(path, mode);
	int err;

	if (!f) {
		fprintf(stderr, "gupstat report: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	err = fn(f, tf, s);
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		fprintf(stderr, "gupstat report: %s: %s\n", path, strerror(-err));
	return err;
}

/*
 * The timeline has every hold with its process and address: private like
 * the trace (0600). The plot is aggregate only (0644).
 */
static int exports(const struct report_opts *o, const struct trace_file *tf,
		   const struct trace_summary *s)
{
	if (o->perfetto && export_to(o->perfetto, 0600, export_perfetto, tf, s))
		return -1;
	if (o->plot && export_to(o->plot, 0644, export_plot, tf, s))
		return -1;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct trace_summary s;
	struct report_opts o;
	struct trace_file tf;
	int err;

	err = parse(&o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	if (trace_file_read(&tf, o.path)) {
		fprintf(stderr, "gupstat report: %s: %s\n", o.path, tf.err);
		return 1;
	}
	if (trace_summarize(&tf, o.top, &s)) {
		fprintf(stderr, "gupstat report: %s: out of memory\n", o.path);
		trace_file_free(&tf);
		return 1;
	}
	trace_text_print(stdout, o.path, &tf, &s);
	err = exports(&o, &tf, &s) ? 1 : 0;
	trace_summary_free(&s);
	trace_file_free(&tf);
	return err;
}
