// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat report FILE: read a trace file (every part checked, one line
 * and exit 1 for anything wrong with it), print its summary and longest
 * holds, and export a timeline and a plot on request.
 */
#include <errno.h>
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
#include "util/output.h"

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

typedef int (*export_fn)(FILE *f, const struct trace_file *tf,
			 const struct trace_summary *s);

enum { EXPORT_PERFETTO, EXPORT_PLOT, NR_EXPORTS };

static const export_fn export_fns[NR_EXPORTS] = { export_perfetto, export_plot };

static void export_paths(const struct report_opts *o, const char **paths)
{
	paths[EXPORT_PERFETTO] = o->perfetto;
	paths[EXPORT_PLOT] = o->plot;
}

static void exports_discard(struct output *out)
{
	int i;

	for (i = 0; i < NR_EXPORTS; i++)
		output_discard(&out[i]);
}

/* Opened before the text prints, so that a bad path prints nothing. */
static int exports_open(const struct report_opts *o, struct output *out)
{
	const char *const inputs[] = { o->path, NULL };
	const char *paths[NR_EXPORTS];
	int i;

	export_paths(o, paths);
	if (paths[0] && paths[1] && !strcmp(paths[0], paths[1])) {
		fprintf(stderr, "gupstat report: cannot write %s: named for both --perfetto and --plot\n",
			paths[0]);
		return -1;
	}
	for (i = 0; i < NR_EXPORTS; i++) {
		if (paths[i] && output_open(&out[i], "gupstat report", paths[i], inputs)) {
			exports_discard(out);
			return -1;
		}
	}
	return 0;
}

/* Each export in full, or its old file left as it was. */
static int exports_write(const struct report_opts *o, struct output *out,
			 const struct trace_file *tf, const struct trace_summary *s)
{
	const char *paths[NR_EXPORTS];
	int i, err = 0;

	export_paths(o, paths);
	for (i = 0; i < NR_EXPORTS; i++) {
		if (!paths[i])
			continue;
		if (err) {
			output_discard(&out[i]);
			continue;
		}
		err = export_fns[i](out[i].f, tf, s);
		err = err ? output_fail(&out[i], err) : output_commit(&out[i]);
	}
	return err;
}

int cmd_report(int argc, char **argv)
{
	struct output out[NR_EXPORTS] = {};
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
	if (exports_open(&o, out)) {
		trace_file_free(&tf);
		return 1;
	}
	if (trace_summarize(&tf, o.top, &s)) {
		fprintf(stderr, "gupstat report: %s: out of memory\n", o.path);
		exports_discard(out);
		trace_file_free(&tf);
		return 1;
	}
	trace_text_print(stdout, o.path, &tf, &s);
	err = exports_write(&o, out, &tf, &s) ? 1 : 0;
	trace_summary_free(&s);
	trace_file_free(&tf);
	return err;
}
