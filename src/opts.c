// SPDX-License-Identifier: GPL-2.0
/* Command-line options of the live view, in bcc libbpf-tools' shape. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "opts.h"

static const char usage[] =
"usage: gupstat [OPTIONS] [-- COMMAND [ARG]...]\n"
"\n"
"Count the get_user_pages() slow path's page-table walk: calls to\n"
"follow_page_pte(), pages looked up per call (the batch size) and why\n"
"calls returned no page. With COMMAND, run it and count it alone.\n"
"\n"
"  -p, --pid PID        count this process only\n"
"  -d, --duration SEC   stop after SEC seconds\n"
"  -k, --kprobes        attach kprobes instead of fentry/fexit\n"
"  -v, --verbose        print libbpf debug messages\n"
"  -h, --help           print this help\n"
"\n"
"examples:\n"
"  sudo gupstat                      # all tasks, until Ctrl-C\n"
"  sudo gupstat -p 1234 -d 10        # one process for ten seconds\n"
"  sudo gupstat -- ./my_workload     # one command, start to end\n";

static const struct option long_opts[] = {
	{ "pid", required_argument, NULL, 'p' },
	{ "duration", required_argument, NULL, 'd' },
	{ "kprobes", no_argument, NULL, 'k' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{}
};

/* A whole positive decimal number no larger than @max, or -EINVAL. */
static long parse_positive(const char *opt, const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > max) {
		fprintf(stderr, "gupstat: %s: not a number from 1 to %ld: '%s'\n",
			opt, max, s);
		return -EINVAL;
	}
	return v;
}

static int parse_one(struct live_opts *o, int c, const char *arg)
{
	long v;

	switch (c) {
	case 'p':
		v = parse_positive("-p", arg, INT_MAX);
		o->pid = v;
		return v < 0 ? v : 0;
	case 'd':
		v = parse_positive("-d", arg, INT_MAX);
		o->duration = v;
		return v < 0 ? v : 0;
	case 'k':
		o->force_kprobe = true;
		return 0;
	case 'v':
		o->verbose = true;
		return 0;
	case 'h':
		fputs(usage, stdout);
		return 1;
	default:
		return -EINVAL;
	}
}

static void bad_option(int c, const char *arg)
{
	if (c == ':')
		fprintf(stderr, "gupstat: option '%s' needs a value (try 'gupstat --help')\n", arg);
	else
		fprintf(stderr, "gupstat: unknown option '%s' (try 'gupstat --help')\n", arg);
}

int live_opts_parse(struct live_opts *o, int argc, char **argv)
{
	int c, err;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:p:d:kvh", long_opts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			bad_option(c, argv[optind - 1]);
			return -EINVAL;
		}
		err = parse_one(o, c, optarg);
		if (err)
			return err;
	}
	if (optind < argc)
		o->cmd = &argv[optind];
	if (o->cmd && o->pid) {
		fprintf(stderr, "gupstat: -p and a COMMAND exclude each other\n");
		return -EINVAL;
	}
	return 0;
}
